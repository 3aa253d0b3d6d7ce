import type { ReactNode } from 'react';
import type { Shown } from '../lib/stats';

/**
 * One statistic in a cell: the number (its note, if any, on hover and marked *), or "—" with the
 * engine's reason on hover and beside it. `data-value` carries the shown text without the marks.
 */
export function StatValue({ shown, testId }: { shown: Shown; testId?: string }): ReactNode {
  if (shown.reason !== null) {
    return (
      <span className="stat-value undefined" data-testid={testId} data-value="" data-undefined="true" title={shown.reason}>
        — <span className="reason">({shown.reason})</span>
      </span>
    );
  }
  return (
    <span className="stat-value" data-testid={testId} data-value={shown.text === '—' ? '' : shown.text} title={shown.note ?? undefined}>
      {shown.text}
      {shown.note && (
        <sup className="note-mark" title={shown.note} role="img" aria-label={`note: ${shown.note}`}>
          *
        </sup>
      )}
    </span>
  );
}
