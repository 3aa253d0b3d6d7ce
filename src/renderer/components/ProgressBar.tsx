import type { ReactNode } from 'react';

/** A determinate bar when total > 0, otherwise an indeterminate one. */
export function ProgressBar({
  done,
  total,
  testId,
  label,
  text,
}: {
  done: number;
  total: number;
  testId?: string;
  label?: string;
  /** Replaces the "done / total" text beside the bar. */
  text?: string;
}): ReactNode {
  const pct = total > 0 ? Math.max(0, Math.min(100, (100 * done) / total)) : null;
  return (
    <div className="progress" data-testid={testId}>
      <div
        className={pct === null ? 'progress-track indeterminate' : 'progress-track'}
        role="progressbar"
        aria-label={label ?? 'progress'}
        aria-valuemin={0}
        aria-valuemax={total > 0 ? total : undefined}
        aria-valuenow={total > 0 ? done : undefined}
      >
        <div className="progress-fill" style={{ width: pct === null ? undefined : `${pct}%` }} />
      </div>
      <span className="progress-text small">{text !== undefined ? text : total > 0 ? `${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')}` : '…'}</span>
    </div>
  );
}
