import type { ReactNode } from 'react';

export interface ChoiceSelectProps<T extends string> {
  /** The values offered, in order; each option shows its value unless `text` says otherwise. */
  choices: readonly T[];
  /** The choice shown (T is read from `choices`). */
  value: NoInfer<T>;
  onChange(value: NoInfer<T>): void;
  testId: string;
  disabled?: boolean;
  /** Only where no visible label names the select. */
  ariaLabel?: string;
  /** A first option with the value '' and this text (only where '' is one of the values T allows). */
  emptyText?: '' extends T ? string : never;
  /** An option's text (default: its value). */
  text?(choice: T): string;
  /** An option's tooltip. */
  title?(choice: T): string;
}

/** A select over a fixed list of values (formats, metrics, roles, orders, runs): the value chosen is one of them. */
export function ChoiceSelect<T extends string>({ choices, value, onChange, testId, disabled, ariaLabel, emptyText, text, title }: ChoiceSelectProps<T>): ReactNode {
  return (
    <select data-testid={testId} value={value} onChange={(e) => onChange(e.target.value as T)} disabled={disabled} aria-label={ariaLabel}>
      {emptyText !== undefined && <option value="">{emptyText}</option>}
      {choices.map((c) => (
        <option key={c} value={c} title={title?.(c)}>
          {text ? text(c) : c}
        </option>
      ))}
    </select>
  );
}
