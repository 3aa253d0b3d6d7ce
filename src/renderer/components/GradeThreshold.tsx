/**
 * The Evaluate screen's "similar from grade" field (the CLI's --threshold): a number field that
 * passes on a value only when the text is a finite number (an empty or half-typed "-" field keeps
 * the last one, and says so), so the evaluation never runs with NaN.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { readNumber } from './NumberInput';

/** The field's text as a threshold: the number, or null when it is not one. */
export function readThreshold(text: string): number | null {
  return readNumber(text, -Infinity, Infinity, false);
}

export function GradeThreshold({ value, onChange }: { value: number; onChange: (v: number) => void }): ReactNode {
  const [text, setText] = useState(String(value));
  // A new value from outside (a pool switch resets it): show it.
  useEffect(() => setText((t) => (readThreshold(t) === value ? t : String(value))), [value]);
  const bad = readThreshold(text) === null;
  return (
    <>
      <input
        type="number"
        step="any"
        className="narrow-number"
        data-testid="eval-threshold"
        value={text}
        aria-invalid={bad ? true : undefined}
        aria-describedby={bad ? 'eval-threshold-error' : undefined}
        onChange={(e) => {
          setText(e.target.value);
          const n = readThreshold(e.target.value);
          if (n !== null) onChange(n);
        }}
      />
      {bad && (
        <span className="hint error" id="eval-threshold-error" data-testid="eval-threshold-error">
          a grade (a number); still counting from {value}
        </span>
      )}
    </>
  );
}
