/**
 * The Annotate screen's messages above the query: not assigned to the pool, what to do before
 * starting, a read's error (with Reload), the latest notice and the labels that were not saved.
 * Once a query is shown, the error and the notice show in its sticky head instead (AnnotateStatus).
 */
import type { ReactNode } from 'react';
import type { AssignmentView } from '../../shared/contract';
import { FailedLabels } from '../components/SaveStatus';
import type { LabelOp } from './labelQueue';

export interface AnnotateMessagesProps {
  pool: string;
  annotator: string;
  /** The pool's plan when the annotator is not assigned to it. */
  notAssigned: AssignmentView | null;
  /** Nothing to label yet: `'no-pools'` or `'need-name'`, else null. */
  setup: 'no-pools' | 'need-name' | null;
  /** What to say when there are no pools (components/NoPools.tsx: depends on the role). */
  noPoolsText: string;
  error: string | null;
  onReload: () => void;
  notice: string | null;
  failedOps: LabelOp[];
  onRetry: (id: number) => void;
  onDismiss: (id: number) => void;
  onOpenReview: () => void;
}

export function AnnotateMessages(p: AnnotateMessagesProps): ReactNode {
  const { pool, annotator, notAssigned, setup, error, notice, failedOps } = p;
  return (
    <>
      {notAssigned && (
        <div className="note-box" data-testid="annotate-not-assigned" role="status">
          <strong>{annotator}</strong> is not assigned to pool “{pool}”
          {notAssigned.annotators.length > 0 ? ` (its annotators: ${notAssigned.annotators.join(', ')})` : ' (no one is assigned to it)'}.{' '}
          {notAssigned.judges.includes(annotator) ? (
            <>
              As a judge, settle its disagreements on the{' '}
              <button className="link-button underline" onClick={p.onOpenReview}>
                Review
              </button>{' '}
              screen: a judge's label is taken only on a pair in dispute. To label the pool like an annotator, ask its owner to assign you.
            </>
          ) : (
            'The pool is assigned on the Pools screen.'
          )}
        </div>
      )}
      {setup && (
        <div className="card">
          {setup === 'no-pools' ? (
            <p data-testid="annotate-empty">{p.noPoolsText}</p>
          ) : (
            <p data-testid="annotate-need-name">Enter your annotator name above to start (it is remembered on this computer).</p>
          )}
        </div>
      )}
      <ErrorAndNotice error={error} onReload={p.onReload} notice={notice} />
      {failedOps.length > 0 && <FailedLabels ops={failedOps} onRetry={p.onRetry} onDismiss={p.onDismiss} />}
    </>
  );
}

export interface AnnotateStatusProps {
  error: string | null;
  onReload: () => void;
  notice: string | null;
  /** The candidate just marked unsure, offered a note (c). */
  offer: { title: string | null; id: string; open: () => void } | null;
  /** Every candidate of the query on screen is labeled. */
  complete: boolean;
}

/**
 * What the keys just did, with a query on screen: shown in the sticky head under the query, so it
 * stays in view however far the candidates are scrolled — a read's error, the latest notice (undo,
 * redo, refusals), the note offered after a "?", and what to do once the query is done.
 */
export function AnnotateStatus({ error, onReload, notice, offer, complete }: AnnotateStatusProps): ReactNode {
  if (!error && !notice && !offer && !complete) return null;
  return (
    <div className="annotate-status" data-testid="annotate-status">
      <ErrorAndNotice error={error} onReload={onReload} notice={notice} />
      {offer && (
        <p className="note-box" role="status" data-testid="note-offer">
          You marked {offer.title ? `“${offer.title}”` : offer.id} unsure. Say why:{' '}
          <button type="button" className="link-button" data-testid="note-offer-open" onClick={offer.open}>
            <kbd>c</kbd> writes a note
          </button>
          .
        </p>
      )}
      {complete && (
        <p className="note-box" data-testid="query-complete">
          All candidates of this query are labeled. Press <kbd>Enter</kbd> or <kbd>n</kbd> for the next unlabeled query.
        </p>
      )}
    </div>
  );
}

/** A read's error (with Reload) and the latest notice: above the query before one is shown, in its sticky head after. */
function ErrorAndNotice({ error, onReload, notice }: { error: string | null; onReload: () => void; notice: string | null }): ReactNode {
  return (
    <>
      {error && (
        <div className="error-box" role="alert" data-testid="annotate-error">
          {error}{' '}
          <button onClick={onReload} data-testid="annotate-reload">
            Reload
          </button>
        </div>
      )}
      {notice && (
        <div className="note-box" data-testid="annotate-notice" role="status">
          {notice}
        </div>
      )}
    </>
  );
}
