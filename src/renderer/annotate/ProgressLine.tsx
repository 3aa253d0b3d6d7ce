/**
 * The Annotate screen's progress line: the query's position, queries done and pairs labeled (live,
 * progress.ts), the annotator's assignment, the session's pace, the ETA and the time per query.
 */
import type { ReactNode } from 'react';
import type { AssignmentView, QueryView } from '../../shared/contract';
import { fmtDuration, fmtEta, fmtInt } from '../lib/format';
import type { SessionPace } from './useSessionPace';

export interface ProgressLineProps {
  view: QueryView;
  progress: QueryView['progress'];
  assigned: AssignmentView | null;
  pace: SessionPace;
  loading: boolean;
}

export function ProgressLine({ view, progress, assigned, pace: { pace, avgMs, timedQueries }, loading }: ProgressLineProps): ReactNode {
  return (
    <div className="progress-line" data-testid="annotate-progress" aria-live="off">
      <span>
        Query <strong data-testid="progress-index">{view.index + 1}</strong> of {fmtInt(view.total)}
      </span>
      <span title="queries with every candidate labeled by you">
        <strong data-testid="progress-queries">{fmtInt(progress.doneQueries)}</strong> / {fmtInt(progress.totalQueries)} queries done
      </span>
      <span title="pairs you have labeled, counted as each label is saved">
        <strong data-testid="progress-pairs">{fmtInt(progress.labeledPairs)}</strong> / {fmtInt(progress.totalPairs)} pairs labeled
      </span>
      {assigned && assigned.mode !== 'open' && assigned.queries && (
        <span data-testid="annotate-assigned" title="the queries of this pool assigned to you">
          {fmtInt(assigned.queries.length)} assigned to you ({assigned.mode === 'full' ? 'full overlap' : `${assigned.perQuery} annotator${assigned.perQuery === 1 ? '' : 's'} per query`})
        </span>
      )}
      <span data-testid="progress-pace" title="your pace over this session's last labels (breaks over 2 min count as 2 min)">
        {pace === null ? 'pace: —' : `${(60_000 / pace).toFixed(pace < 6000 ? 0 : 1)} pairs/min`}
      </span>
      <span data-testid="progress-eta" title="time left for the remaining pairs at this pace">
        ETA {fmtEta(progress.totalPairs - progress.labeledPairs, pace)}
      </span>
      <span data-testid="progress-time">{avgMs === null ? 'time per query: —' : `${fmtDuration(avgMs)} per query (${timedQueries} of this pool this session)`}</span>
      {loading && <span className="muted">loading…</span>}
    </div>
  );
}
