/**
 * The query on the Annotate screen: its id, category and tags, its title and (shown or hidden)
 * body, with the terms it shares with the candidate under the cursor highlighted.
 */
import type { ReactNode } from 'react';
import type { QueryView } from '../../shared/contract';
import { highlight } from '../lib/highlight';

export interface QueryPanelProps {
  view: QueryView;
  /** The terms to highlight (lib/highlight.ts termSet). */
  terms: ReadonlySet<string>;
  bodyOpen: boolean;
  onToggleBody: () => void;
}

export function QueryPanel({ view, terms, bodyOpen, onToggleBody }: QueryPanelProps): ReactNode {
  return (
    <section className="query-panel" data-testid="query-panel" aria-label="The query">
      <div className="query-meta small muted">
        <span data-testid="query-id">{view.queryId}</span>
        {view.query?.category && <span> · {view.query.category}</span>}
        {view.query?.tags.length ? <span> · {view.query.tags.join(', ')}</span> : null}
        <span className="spacer" />
        {view.query && view.query.body.trim() && (
          <button
            className="link-button"
            data-testid="query-body-toggle"
            aria-expanded={bodyOpen}
            tabIndex={-1}
            onMouseDown={(e) => e.preventDefault()}
            onClick={onToggleBody}
          >
            {bodyOpen ? 'hide body' : 'show body'}
          </button>
        )}
      </div>
      <h2 data-testid="query-title" dir="auto">{view.query?.title ? highlight(view.query.title, terms) : <span className="muted">(no title)</span>}</h2>
      {bodyOpen && (
        <div className="query-body" data-testid="query-body" tabIndex={0} role="region" aria-label="query body" dir="auto">
          {view.query ? highlight(view.query.body, terms) : <span className="muted">The text of this query is not in the workspace.</span>}
        </div>
      )}
    </section>
  );
}
