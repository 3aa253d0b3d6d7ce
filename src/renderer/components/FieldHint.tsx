import type { ReactNode } from 'react';

/** The id of the hint of the field with test id `testId`: its `aria-describedby`. */
export const hintIdOf = (testId: string): string => `${testId}-hint`;

/**
 * What describes a form field (its `aria-describedby`, outside its label: not part of its name):
 * the error when there is one (test id `<testId>-error`), else the warning (`<testId>-warning`),
 * else the hint.
 */
export function FieldHint({ testId, error, warning, children }: { testId: string; error: string | null; warning?: ReactNode; children: ReactNode }): ReactNode {
  const id = hintIdOf(testId);
  if (error) {
    return (
      <span className="hint error" id={id} data-testid={`${testId}-error`}>
        {error}
      </span>
    );
  }
  if (warning) {
    return (
      <span className="hint warn-text" id={id} data-testid={`${testId}-warning`}>
        {warning}
      </span>
    );
  }
  return (
    <span className="hint" id={id}>
      {children}
    </span>
  );
}
