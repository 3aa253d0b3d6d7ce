/** A form field for an optional whole number within bounds (empty = the default), and its reading. */
import type { ReactNode } from 'react';
import { FieldHint, hintIdOf } from './FieldHint';

/** The field's text read: undefined when empty, else the number, or an error saying what fits. */
export function readOptionalWholeNumber(text: string, min: number, max: number, emptyMeans: string): { value?: number; error: string | null } {
  if (text.trim() === '') return { error: null };
  const n = Number(text);
  return Number.isInteger(n) && n >= min && n <= max ? { value: n, error: null } : { error: `a whole number from ${min} to ${max}, or empty for ${emptyMeans}` };
}

export function OptionalWholeNumberField({
  label,
  testId,
  min,
  max,
  placeholder,
  text,
  onChange,
  error,
  hint,
}: {
  label: string;
  testId: string;
  min: number;
  max: number;
  placeholder: string;
  text: string;
  onChange: (text: string) => void;
  error: string | null;
  hint: string;
}): ReactNode {
  // The error (or hint) describes the field, outside its label: not part of its name.
  return (
    <div className="field">
      <label>
        {label} <span className="optional">optional</span>
        <input
          type="number"
          min={min}
          max={max}
          data-testid={testId}
          placeholder={placeholder}
          value={text}
          aria-invalid={error ? true : undefined}
          aria-describedby={hintIdOf(testId)}
          onChange={(e) => onChange(e.target.value)}
        />
      </label>
      <FieldHint testId={testId} error={error}>
        {hint}
      </FieldHint>
    </div>
  );
}
