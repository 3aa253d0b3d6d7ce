/**
 * A number field within bounds that can be typed over: a whole number (the default) or, with
 * `step`, a decimal. The field keeps what is typed; the value changes only when the text reads as
 * a number of that kind within [min, max]. Text that does not (empty while retyping, out of range,
 * a fraction where a whole number is wanted) marks the field invalid and keeps the last good value,
 * and leaving the field puts that value back. (Clamping on every keystroke, as these fields did,
 * turned an emptied depth back into 20 under the caret, so typing 50 gave 2050, and the first 0 of
 * an α of 0.01 into 0.05.)
 */
import { useEffect, useState, type InputHTMLAttributes, type ReactNode } from 'react';

/** The number `text` holds when it is a whole number (or, not `whole`, a finite number) within [min, max], else null. */
export function readNumber(text: string, min: number, max: number, whole = true): number | null {
  if (text.trim() === '') return null;
  const n = Number(text);
  return (whole ? Number.isSafeInteger(n) : Number.isFinite(n)) && n >= min && n <= max ? n : null;
}

type PassedOn = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'value' | 'onChange' | 'min' | 'max' | 'onBlur' | 'step'>;

export function NumberInput({
  value,
  onChange,
  min = Number.MIN_SAFE_INTEGER,
  max = Number.MAX_SAFE_INTEGER,
  step,
  testId,
  ...rest
}: PassedOn & { value: number; onChange: (n: number) => void; min?: number; max?: number; /** A decimal field's step; absent: whole numbers. */ step?: number; testId: string }): ReactNode {
  const whole = step === undefined;
  const read = (t: string): number | null => readNumber(t, min, max, whole);
  const [text, setText] = useState(String(value));
  // A value set from outside (a reset, a stored setting) shows, unless the text already reads as it.
  useEffect(() => {
    setText((t) => (readNumber(t, min, max, whole) === value ? t : String(value)));
  }, [value, min, max, whole]);
  const invalid = read(text) === null;
  const kind = whole ? 'a whole number' : 'a number';
  const range = min === Number.MIN_SAFE_INTEGER ? kind : max === Number.MAX_SAFE_INTEGER ? `${kind} from ${min}` : `${kind} from ${min} to ${max}`;
  return (
    <input
      {...rest}
      type="number"
      min={min === Number.MIN_SAFE_INTEGER ? undefined : min}
      max={max === Number.MAX_SAFE_INTEGER ? undefined : max}
      step={step ?? 1}
      data-testid={testId}
      value={text}
      aria-invalid={invalid ? true : undefined}
      title={invalid ? `${range}; leaving the field keeps ${value}` : rest.title}
      onChange={(e) => {
        setText(e.target.value);
        const n = read(e.target.value);
        if (n !== null && n !== value) onChange(n);
      }}
      onBlur={() => {
        if (read(text) === null) setText(String(value));
      }}
    />
  );
}
