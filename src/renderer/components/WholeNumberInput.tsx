/**
 * A number field for a whole number within bounds that can be typed over. The field keeps what is
 * typed; the value changes only when the text reads as a whole number within [min, max]. Text that
 * does not (empty while retyping, out of range, a fraction) marks the field invalid and keeps the
 * last good value, and leaving the field puts that value back. (Clamping on every keystroke, as
 * these fields did, turned an emptied depth back into 20 under the caret, so typing 50 gave 2050.)
 */
import { useEffect, useState, type InputHTMLAttributes, type ReactNode } from 'react';

/** The number `text` holds when it is a whole number within [min, max], else null. */
export function readWholeNumber(text: string, min: number, max: number): number | null {
  if (text.trim() === '') return null;
  const n = Number(text);
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : null;
}

type PassedOn = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'value' | 'onChange' | 'min' | 'max' | 'onBlur'>;

export function WholeNumberInput({
  value,
  onChange,
  min = Number.MIN_SAFE_INTEGER,
  max = Number.MAX_SAFE_INTEGER,
  testId,
  ...rest
}: PassedOn & { value: number; onChange: (n: number) => void; min?: number; max?: number; testId: string }): ReactNode {
  const [text, setText] = useState(String(value));
  // A value set from outside (a reset, a stored setting) shows, unless the text already reads as it.
  useEffect(() => {
    setText((t) => (readWholeNumber(t, min, max) === value ? t : String(value)));
  }, [value, min, max]);
  const invalid = readWholeNumber(text, min, max) === null;
  const range = min === Number.MIN_SAFE_INTEGER ? 'a whole number' : max === Number.MAX_SAFE_INTEGER ? `a whole number from ${min}` : `a whole number from ${min} to ${max}`;
  return (
    <input
      {...rest}
      type="number"
      min={min === Number.MIN_SAFE_INTEGER ? undefined : min}
      max={max === Number.MAX_SAFE_INTEGER ? undefined : max}
      step={1}
      data-testid={testId}
      value={text}
      aria-invalid={invalid ? true : undefined}
      title={invalid ? `${range}; leaving the field keeps ${value}` : rest.title}
      onChange={(e) => {
        setText(e.target.value);
        const n = readWholeNumber(e.target.value, min, max);
        if (n !== null && n !== value) onChange(n);
      }}
      onBlur={() => {
        if (readWholeNumber(text, min, max) === null) setText(String(value));
      }}
    />
  );
}
