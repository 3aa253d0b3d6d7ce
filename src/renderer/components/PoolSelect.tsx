import type { ReactNode } from 'react';
import type { PoolInfo } from '../../shared/types';

export interface PoolSelectProps {
  pools: readonly PoolInfo[];
  value: string;
  onChange(pool: string): void;
  testId: string;
  /** `inline` label (the screens' tool bars) or a block label (forms). */
  inline?: boolean;
  /** Shown as the only option when there are no pools (none: an empty select). */
  emptyText?: string;
  /** Drop focus after a choice, so the screen's keys go to the screen, not the select's type-ahead. */
  blurOnChange?: boolean;
}

/** The labelled pool chooser of every screen that works on one pool. */
export function PoolSelect({ pools, value, onChange, testId, inline = true, emptyText, blurOnChange = false }: PoolSelectProps): ReactNode {
  return (
    <label className={inline ? 'inline' : undefined}>
      Pool
      <select
        data-testid={testId}
        value={value}
        onChange={(e) => {
          onChange(e.target.value);
          if (blurOnChange) e.target.blur();
        }}
      >
        {emptyText !== undefined && pools.length === 0 && <option value="">{emptyText}</option>}
        {pools.map((p) => (
          <option key={p.name} value={p.name}>
            {p.name}
          </option>
        ))}
      </select>
    </label>
  );
}
