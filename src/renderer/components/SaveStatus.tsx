/** The outbox's state (all saved / saving / retrying / failed) and the list of labels it could not save. */
import type { ReactNode } from 'react';
import type { LabelOp } from '../annotate/labelQueue';

export function SaveStatus({ counts, onRetry }: { counts: { unsaved: number; failed: number; retrying: number; busy?: number; unanswered?: number }; onRetry: () => void }): ReactNode {
  if (counts.failed > 0)
    return (
      <span className="save-status bad" data-testid="save-status" data-state="failed" role="alert">
        {counts.failed} label{counts.failed > 1 ? 's' : ''} not saved{' '}
        <button onClick={onRetry} data-testid="save-retry-all">
          Retry
        </button>
      </span>
    );
  if (counts.retrying > 0)
    return (
      <span className="save-status warn" data-testid="save-status" data-state="retrying" role="status">
        {counts.unsaved} label{counts.unsaved > 1 ? 's' : ''} waiting to be saved —{' '}
        {/* Given up on for want of an answer: the server may be out of reach, or too busy to answer at all. */}
        {counts.unanswered === counts.retrying ? 'no answer from the server (busy, or out of reach), sending again' : 'cannot reach the engine, retrying'}
      </span>
    );
  // The server answers and has the label on hand, but has not saved it yet (e.g. it waits behind an import's write):
  // busy, not out of reach, and not saved until it says so.
  if (counts.busy)
    return (
      <span className="save-status warn" data-testid="save-status" data-state="busy" role="status">
        {counts.unsaved} label{counts.unsaved > 1 ? 's' : ''} waiting to be saved — the server is busy (it answers, but has not saved {counts.unsaved > 1 ? 'them' : 'it'} yet),
        waiting
      </span>
    );
  if (counts.unsaved > 0)
    return (
      <span className="save-status" data-testid="save-status" data-state="saving">
        saving…
      </span>
    );
  return (
    <span className="save-status ok" data-testid="save-status" data-state="saved">
      all labels saved ✓
    </span>
  );
}

export function FailedLabels({ ops, onRetry, onDismiss }: { ops: LabelOp[]; onRetry: (id: number) => void; onDismiss: (id: number) => void }): ReactNode {
  return (
    <div className="error-box" role="alert" data-testid="failed-labels">
      <strong>These labels were not saved:</strong>
      <ul>
        {ops.map((o) => (
          <li key={o.id}>
            {o.pool} · query {o.queryId} · {o.candidateId} → {o.value ?? '(clear)'}: {o.error}{' '}
            <button onClick={() => onRetry(o.id)}>Retry</button> <button onClick={() => onDismiss(o.id)}>Discard</button>
          </li>
        ))}
      </ul>
    </div>
  );
}

