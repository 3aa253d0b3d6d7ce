/** The save state of a judge's ruling on a row of the Review screen (the list's column and the detail pane). */
import type { ReactNode } from 'react';
import type { Row } from './reviewRow';

/** A row's save state; `compact` (the split view's list): a symbol, the words in its title and label. */
export function ReviewState({ state, error, testId, compact = false }: { state: Row['state']; error?: string; testId?: string; compact?: boolean }): ReactNode {
  if (compact && state !== 'none') {
    const words = state === 'saved' ? 'saved' : state === 'failed' ? 'not saved' : state === 'retrying' ? 'queued — retrying' : 'saving…';
    const cls = state === 'saving' ? 'pending' : state;
    return (
      <span className={`state ${cls}`} data-testid={testId} data-state={state === 'saving' ? 'pending' : state} title={error ? `${words}: ${error}` : words} role="img" aria-label={words}>
        {state === 'saved' ? '✓' : state === 'failed' ? '!' : '…'}
      </span>
    );
  }
  switch (state) {
    case 'none':
      return <span className="state none" data-testid={testId} data-state="none" />;
    case 'pending':
    case 'saving':
      return (
        <span className="state pending" data-testid={testId} data-state="pending">
          saving…
        </span>
      );
    case 'retrying':
      return (
        <span className="state retrying" data-testid={testId} data-state="retrying" title={error}>
          queued — retrying
        </span>
      );
    case 'failed':
      return (
        <span className="state failed" data-testid={testId} data-state="failed" title={error}>
          not saved
        </span>
      );
    case 'saved':
      return (
        <span className="state saved" data-testid={testId} data-state="saved">
          saved ✓
        </span>
      );
  }
}
