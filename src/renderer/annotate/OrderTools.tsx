/**
 * The tools above the candidates of an open (not blind) pool: the "Order by" list (pool order or
 * a ranker's rank, candidateSort.ts) and the live metrics of the pool's rankers.
 */
import type { ReactNode } from 'react';
import type { QueryView } from '../../shared/contract';
import { effectiveSort, GIVEN_ORDER, type CandidateSort } from './candidateSort';
import { LiveMetrics } from './LiveMetrics';

/** The "Order by" list's value: '' (pool order), a ranker (its rank, best first), else a column header's sort. */
const COLUMN_CHOICE = '\u0000column';
function orderChoice(v: QueryView, sort: CandidateSort): string {
  const s = effectiveSort(v, sort);
  if (s.by === null || (s.by === 'position' && !s.desc)) return '';
  if (s.by === 'run' && !s.desc) return s.run ?? '';
  return COLUMN_CHOICE;
}

export interface OrderToolsProps {
  view: QueryView;
  order: CandidateSort;
  annotator: string;
  onOrder: (sort: CandidateSort) => void;
}

export function OrderTools({ view, order, annotator, onOrder }: OrderToolsProps): ReactNode {
  return (
    <div className="annotate-tools">
      {view.runNames.length > 0 && (
        <label className="inline">
          Order by
          <select
            data-testid="annotate-order"
            value={orderChoice(view, order)}
            onChange={(e) => onOrder(e.target.value === '' ? GIVEN_ORDER : { by: 'run', run: e.target.value, desc: false })}
          >
            <option value="">pool order</option>
            {orderChoice(view, order) === COLUMN_CHOICE && (
              <option value={COLUMN_CHOICE} disabled>
                a column header
              </option>
            )}
            {view.runNames.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
      )}
      <LiveMetrics pool={view.pool} annotator={annotator} runNames={view.runNames} />
    </div>
  );
}
