/**
 * The Review screen's list pane: the filter box, the disagreements as sorted and filtered (the
 * LIST_WINDOW rows holding the cursor), and the buttons that move between windows. A row's click
 * puts the cursor on it; the keys stay the screen's.
 */
import type { ReactNode, RefObject } from 'react';
import { FilterBox, type TableSort } from '../components/DataTable';
import { describeLabel } from '../annotate/keys';
import { fmtInt, snippet } from '../lib/format';
import { isSettled, votesShown, votesText, type Row } from './reviewRow';
import { whenYouVoted } from './rulingKey';
import { ReviewState } from './ReviewState';
import { JudgeLabelText } from './JudgeLabelText';

/**
 * How many rows the list shows at a time: the window holding the cursor (j/k, PgUp/PgDn and the
 * buttons cross windows). All of a 3,000-pair queue's rows made each key take about a second.
 */
export const LIST_WINDOW = 200;

/** The first row of the window holding the cursor. */
export function windowStartOf(cursor: number): number {
  return Math.floor(cursor / LIST_WINDOW) * LIST_WINDOW;
}

export function ReviewList({
  sort,
  total,
  cursor,
  scheme,
  currentRow,
  onChoose,
}: {
  /** The rows as shown (sorted, filtered) with their headers and filter. */
  sort: TableSort<Row>;
  /** How many disagreements the queue has (before the filter). */
  total: number;
  cursor: number;
  scheme: string;
  /** Given to the cursor's row (the screen scrolls it into view). */
  currentRow: RefObject<HTMLTableRowElement | null>;
  onChoose: (key: string) => void;
}): ReactNode {
  const rows = sort.rows;
  const windowStart = windowStartOf(cursor);
  return (
    <div className="review-list-pane" data-testid="review-list-pane">
      <FilterBox value={sort.filter} onChange={sort.setFilter} label="Filter disagreements" testId="review-filter" shown={rows.length} total={total} />
      {/* tabIndex -1: a button of another screen that brought the judge here (Agreement's Review) leaves the focus here, the keys acting at once. */}
      <table className="data candidates review-list" data-testid="review-list" tabIndex={-1}>
        <thead>
          <tr>
            <th scope="col" className="num narrow">#</th>
            {sort.header('query', 'Query', { testId: 'review-sort-query' })}
            {sort.header('candidate', 'Candidate', { testId: 'review-sort-candidate' })}
            {sort.header('labels', 'Labels', { testId: 'review-sort-labels' })}
            {sort.header('impact', 'Impact', { className: 'num', title: "the most settling this pair can move the runs' MAP (summed over runs)", testId: 'review-sort-impact' })}
            {sort.header('judge', 'Judge', { testId: 'review-sort-judge' })}
            {sort.header('saved', 'Saved', { className: 'narrow', testId: 'review-sort-saved' })}
          </tr>
        </thead>
        <tbody>
          {rows.slice(windowStart, windowStart + LIST_WINDOW).map((r, j) => {
            const i = windowStart + j;
            return (
              <tr
                key={r.key}
                ref={i === cursor ? currentRow : undefined}
                className={['cand-row', i === cursor ? 'current' : '', isSettled(r) ? 'settled' : '', r.state === 'failed' ? 'failed' : ''].join(' ')}
                data-testid={`review-row-${i}`}
                data-query={r.item.queryId}
                data-candidate={r.item.candidateId}
                data-value={r.value ?? ''}
                data-state={r.state}
                aria-selected={i === cursor}
                onClick={() => onChoose(r.key)}
              >
                <td className="num narrow">{i + 1}</td>
                <td className="small" dir="auto">{r.item.queryTitle ? snippet(r.item.queryTitle, 48) : r.item.queryId}</td>
                <td className="small" dir="auto">{r.item.candidateTitle ? snippet(r.item.candidateTitle, 48) : r.item.candidateId}</td>
                <td className="small" title={votesText(r, scheme)}>
                  {/* Shown "alice 1 · bob 0", read "alice: similar, bob: not similar" (the "·" was read "dot"). */}
                  <span className="votes">
                    <span aria-hidden="true">{votesShown(r, scheme)}</span>
                    <span className="visually-hidden">{votesText(r, scheme)}</span>
                  </span>
                  {r.item.labels.some((l) => l.noted) && (
                    <span className="note-mark" title="notes on these votes" role="img" aria-label="has notes">
                      {' '}✎
                    </span>
                  )}
                  {r.item.votedByYou && (
                    <span className="muted" data-testid="review-voted-by-you-mark" title={`you voted on this pair ${whenYouVoted(r.item.votedByYou)}: another judge settles it`}>
                      {' '}
                      <span aria-hidden="true">·</span> you voted
                    </span>
                  )}
                </td>
                <td className="num small">{r.item.impact.toFixed(4)}</td>
                <td>
                  <span className={`label-pill tone-${describeLabel(scheme, r.value).tone}`}><JudgeLabelText text={describeLabel(scheme, r.value).text} /></span>
                </td>
                <td className="narrow">
                  <ReviewState state={r.state} error={r.error} compact />
                </td>
              </tr>
            );
          })}
          {rows.length === 0 && (
            <tr>
              <td colSpan={7} className="muted" data-testid="review-filter-empty">
                No disagreement matches the filter.
              </td>
            </tr>
          )}
        </tbody>
      </table>
      {rows.length > LIST_WINDOW && (
        <div className="row wrap small review-window" data-testid="review-window">
          <button type="button" className="small" data-testid="review-window-prev" disabled={windowStart === 0} onClick={() => onChoose(rows[windowStart - LIST_WINDOW]!.key)}>
            <span aria-hidden="true">‹</span> previous {LIST_WINDOW} <kbd>PgUp</kbd>
          </button>
          <span data-testid="review-window-range">
            pairs {fmtInt(windowStart + 1)}–{fmtInt(Math.min(rows.length, windowStart + LIST_WINDOW))} of {fmtInt(rows.length)}
          </span>
          <button type="button" className="small" data-testid="review-window-next" disabled={windowStart + LIST_WINDOW >= rows.length} onClick={() => onChoose(rows[windowStart + LIST_WINDOW]!.key)}>
            next {LIST_WINDOW} <span aria-hidden="true">›</span> <kbd>PgDn</kbd>
          </button>
        </div>
      )}
    </div>
  );
}
