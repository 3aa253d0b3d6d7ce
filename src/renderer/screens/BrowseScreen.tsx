/**
 * Browse: search the workspace's questions (its BM25 index, questions.search), show one with its
 * pools and the labels this user may see (question.show), and open it in Annotate.
 */
import { useCallback, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type ReactNode } from 'react';
import type { SharedState } from '../lib/shared-state';
import { useApp, useEvent, useReconnect, useWorkspaceChangedExceptDraws } from '../lib/context';
import { useDebounced } from '../lib/hooks';
import { errorMessage, fmtCount, snippet } from '../lib/format';
import { isTypingTarget } from '../lib/typing';
import { DataTable } from '../components/DataTable';
import type { BrowseSearch, QuestionShow } from '../../shared/contract';

type BrowseHit = BrowseSearch['results'][number] & { rank: number };

/** The window width under which the question stands below the results (styles.css .browse-grid). */
const STACKED = '(max-width: 760px)';

/** How many matches a search asks for; a full page says there may be more. */
const SEARCH_LIMIT = 50;
type PoolEntry = QuestionShow['pools'][number];

/** A result's BM25 score as the results show it. */
function scoreText(h: BrowseHit): string {
  return h.score === undefined ? '—' : h.score.toFixed(2);
}

export function BrowseScreen({ shared }: { shared: SharedState }): ReactNode {
  const { client } = useApp();
  const [text, setText] = useState('');
  const [source, setSource] = useState('');
  const [hits, setHits] = useState<BrowseHit[] | null>(null);
  /** False when the matches come as a set by title (an annotator's search): no ranks, no scores. */
  const [ranked, setRanked] = useState(true);
  const [err, setErr] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState<QuestionShow | null>(null);
  const [showErr, setShowErr] = useState<string | null>(null);
  /** What the last opened question is, said to screen readers (the focus stays on the result). */
  const [shownSay, setShownSay] = useState('');
  const titleRef = useRef<HTMLHeadingElement | null>(null);
  const resultsRef = useRef<HTMLElement | null>(null);

  // What was last searched and shown: asked again when the server comes back (a search that failed
  // while it was away, or results of a workspace that changed meanwhile) and, for the question, when
  // its labels or the workspace change.
  const searched = useRef<{ text: string; source: string } | null>(null);
  const shownId = useRef<string | null>(null);

  const runSearch = useCallback(
    async (q: { text: string; source: string }) => {
      searched.current = q;
      setBusy(true);
      setErr(null);
      try {
        const r = await client.invoke('questions.search', { text: q.text, ...(q.source ? { source: q.source } : {}), limit: SEARCH_LIMIT });
        setRanked(r.ranked !== false);
        setHits(r.results.map((h, i) => ({ ...h, rank: i + 1 })));
      } catch (e) {
        setHits(null);
        setErr(errorMessage(e));
      } finally {
        setBusy(false);
      }
    },
    [client],
  );
  const search = useCallback(async () => {
    if (!text.trim() || busy) return;
    await runSearch({ text: text.trim(), source: source.trim() });
  }, [runSearch, text, source, busy]);

  const show = useCallback(
    async (id: string, refresh = false) => {
      shownId.current = id;
      if (!refresh) setShowErr(null);
      try {
        const q = await client.invoke('question.show', { id });
        if (shownId.current !== id) return;
        setShown(q);
        setShowErr(null);
        if (refresh) return;
        // Beside the results (a panel that stays in view) the focus stays on the result; in a window
        // so narrow that the question is below them, it goes to the question (Esc brings it back).
        if (window.matchMedia(STACKED).matches) requestAnimationFrame(() => titleRef.current?.focus());
        else setShownSay(`Shown: ${q.question.id}, “${q.question.title || 'no title'}”. → reads it, Esc comes back.`);
      } catch (e) {
        if (shownId.current !== id) return;
        setShown(null);
        setShowErr(errorMessage(e));
      }
    },
    [client],
  );
  const refreshShown = useDebounced(() => shownId.current !== null && void show(shownId.current, true), 150);
  useEvent('label.changed', (rec) => (rec.queryId === shownId.current || rec.candidateId === shownId.current) && refreshShown());
  const refreshAll = (): void => {
    if (searched.current) void runSearch(searched.current);
    refreshShown();
  };
  useWorkspaceChangedExceptDraws(refreshAll);
  useReconnect(refreshAll);

  /** Esc in the question: back to the result that opened it (when the results still hold it). */
  const backToResult = (e: ReactKeyboardEvent): void => {
    if (e.key !== 'Escape' || isTypingTarget(e.target) || !shownId.current) return;
    const result = resultsRef.current?.querySelector<HTMLElement>(`[data-testid="browse-open-${CSS.escape(shownId.current)}"]`);
    if (!result) return;
    e.preventDefault();
    e.stopPropagation();
    result.focus();
  };

  const openInAnnotate = (pool: string, queryId: string): void => {
    shared.setPool(pool);
    shared.setLastQueryId(queryId);
    // The Annotate screen opens on the shared pool; the query is handed over through the address.
    sessionStorage.setItem('qpairs.annotate.open', JSON.stringify({ pool, queryId }));
    shared.goTo('annotate');
  };

  return (
    <div className="browse-screen">
      <section className="card">
        <form
          className="row wrap"
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            void search();
          }}
        >
          <h2 className="grow">Browse questions</h2>
          <label className="inline">
            Search
            <input type="search" data-testid="browse-text" value={text} onChange={(e) => setText(e.target.value)} placeholder="words of a title or body" size={28} />
          </label>
          <label className="inline">
            Source
            <input data-testid="browse-source" value={source} onChange={(e) => setSource(e.target.value)} placeholder="any" size={10} />
          </label>
          {/* aria-disabled while searching: a button that turns disabled under the focus drops it to the page. */}
          <button type="submit" className="primary" data-testid="browse-search" disabled={!text.trim()} aria-disabled={busy || undefined}>
            {busy ? 'Searching…' : 'Search'}
          </button>
        </form>
        {/* What a search found, said to screen readers (the table itself is silent). */}
        <p className="visually-hidden" role="status" data-testid="browse-status">
          {busy ? 'Searching…' : hits ? (hits.length ? `${fmtCount(hits.length, 'question')} found` : 'No question matches.') : ''}
        </p>
        {err && (
          <p className="error" role="alert" data-testid="browse-error">
            {err}
          </p>
        )}
      </section>
      <div className="browse-grid">
        <section className="card" aria-label="Results" ref={resultsRef}>
          {hits === null ? (
            <p className="muted small">Search the workspace’s questions with its BM25 index; pick one to see its pools and labels.</p>
          ) : (
            <>
              {(hits.length >= SEARCH_LIMIT || !ranked) && (
                <p className="small muted" data-testid="browse-results-note">
                  {hits.length >= SEARCH_LIMIT && `The ${SEARCH_LIMIT} best matches are shown; there may be more: add words to narrow the search. `}
                  {!ranked && 'In alphabetical order of title, without ranks or scores (so a search cannot rebuild a blind pool’s order).'}
                </p>
              )}
              <DataTable<BrowseHit>
                testId="browse-results"
                className="browse-results"
                caption="Questions found"
                rows={hits}
                rowId={(h) => h.id}
                rowTestId={(h) => `browse-hit-${h.id}`}
                rowCurrent={(h) => shown?.question.id === h.id}
                filter
                filterLabel="Filter results"
                empty="No question matches."
                columns={[
                  ...(ranked ? [{ id: 'rank', header: '#', className: 'num narrow', sortValue: (h: BrowseHit) => h.rank, cell: (h: BrowseHit) => h.rank }] : []),
                  {
                    id: 'title',
                    header: 'Question',
                    sortValue: (h) => h.title,
                    cell: (h) => (
                      <>
                        <button
                          className="link-button"
                          dir="auto"
                          data-testid={`browse-open-${h.id}`}
                          onClick={() => void show(h.id)}
                          onKeyDown={(e) => {
                            // → reads the question shown beside (Esc there comes back here).
                            if (e.key !== 'ArrowRight' || !titleRef.current) return;
                            e.preventDefault();
                            titleRef.current.focus();
                          }}
                        >
                          {h.title || h.id}
                        </button>
                        {/* Where the results share the window with the question (styles.css .browse-lesser), the source and score stand here, under the title, instead of in their columns. */}
                        <span className="browse-hit-meta small muted" data-testid={`browse-hit-meta-${h.id}`}>
                          {h.source}
                          {ranked && ` · BM25 ${scoreText(h)}`}
                        </span>
                      </>
                    ),
                  },
                  { id: 'source', header: 'Source', className: 'narrow browse-lesser', foldsInto: 'title', sortValue: (h) => h.source, cell: (h) => h.source },
                  ...(ranked
                    ? [{ id: 'score', header: 'BM25', title: 'BM25 score of the question for this search (not a pool ranker’s)', className: 'num narrow browse-lesser', foldsInto: 'title', sortValue: (h: BrowseHit) => h.score ?? null, cell: scoreText }]
                    : []),
                ]}
              />
            </>
          )}
        </section>
        <p className="visually-hidden" role="status" data-testid="browse-shown-announce">
          {shownSay}
        </p>
        <section className="card browse-question" aria-label="Question" data-testid="browse-question" onKeyDown={backToResult}>
          {showErr && (
            <p className="error" role="alert" data-testid="browse-show-error">
              {showErr}
            </p>
          )}
          {!shown && !showErr && <p className="muted small">No question shown.</p>}
          {shown && (
            <>
              <div className="small muted">
                <code data-testid="browse-question-id">{shown.question.id}</code> · {shown.question.source}
                {shown.question.category && <> · {shown.question.category}</>}
                {shown.question.tags.length > 0 && <> · {shown.question.tags.join(', ')}</>} · {shown.answers} answer{shown.answers === 1 ? '' : 's'} or comments
              </div>
              <h2 data-testid="browse-question-title" dir="auto" tabIndex={-1} ref={titleRef}>{shown.question.title || <span className="muted">(no title)</span>}</h2>
              <div className="query-body" tabIndex={0} role="region" aria-label="question body" dir="auto">
                {shown.question.body ? snippet(shown.question.body, 1200) : <span className="muted">(no body)</span>}
              </div>
              <h3>Pools</h3>
              {shown.pools.length === 0 ? (
                <p className="muted small" data-testid="browse-no-pools">
                  This question is in no pool.
                </p>
              ) : (
                <DataTable<PoolEntry>
                  testId="browse-pools"
                  caption="The pools holding this question"
                  rows={shown.pools}
                  rowId={(x) => `${x.pool}\u0000${x.queryId}\u0000${x.as}`}
                  rowTestId={(x) => `browse-pool-${x.pool}-${x.queryId}`}
                  columns={[
                    {
                      id: 'pool',
                      header: 'Pool',
                      sortValue: (x) => x.pool,
                      cell: (x) => (
                        <>
                          {x.pool} {x.blind && <span className="blind-badge">blind</span>}
                        </>
                      ),
                    },
                    {
                      id: 'as',
                      header: 'As',
                      title: 'a query of the pool (its position), or a candidate of one of its queries',
                      sortValue: (x) => `${x.as} ${x.queryId}`,
                      cell: (x) =>
                        x.as === 'query' ? (
                          `query #${x.queryPosition + 1}`
                        ) : (
                          <>
                            candidate{x.candidatePosition !== null ? ` #${x.candidatePosition + 1}` : ''} of query <code>{x.queryId}</code> (#{x.queryPosition + 1})
                          </>
                        ),
                    },
                    {
                      id: 'labels',
                      header: 'Labels you may see',
                      className: 'browse-labels',
                      title: 'in a blind pool an annotator sees only their own labels',
                      sortValue: (x) => x.labels.length,
                      cell: (x) =>
                        x.labels.length ? (
                          <span className="small">
                            {x.as === 'query'
                              ? `${x.labels.length} label${x.labels.length === 1 ? '' : 's'} (${[...new Set(x.labels.map((l) => l.annotator))].join(', ')})`
                              : x.labels.map((l) => `${l.annotator}: ${l.value}`).join(' · ')}
                          </span>
                        ) : (
                          <span className="muted">none</span>
                        ),
                    },
                    {
                      id: 'open',
                      header: <span className="visually-hidden">Open</span>,
                      className: 'narrow',
                      cell: (x) => (
                        <button data-testid={`browse-annotate-${x.pool}-${x.queryId}`} onClick={() => openInAnnotate(x.pool, x.queryId)}>
                          open in Annotate
                        </button>
                      ),
                    },
                  ]}
                />
              )}
            </>
          )}
        </section>
      </div>
    </div>
  );
}
