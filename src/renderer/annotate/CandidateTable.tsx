import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { createColumnHelper, flexRender, getCoreRowModel, type ColumnDef } from '@tanstack/react-table';
import { useAppTable } from '../components/DataTable';
import type { CandidateView, QueryView } from '../../shared/contract';
import { highlight, termSet } from '../lib/highlight';
import { snippet } from '../lib/format';
import type { LabelKey } from './keys';
import { ariaSort, headerSort, type CandidateSort, type SortColumn } from './candidateSort';
import type { LabelOp, OpState } from './labelQueue';
import { NoValue } from '../components/NoValue';

export interface RowModel {
  c: CandidateView;
  /** Index in the displayed order. */
  i: number;
  /** The label shown: the newest unsaved one, else the saved one. */
  label: string | null;
  op: LabelOp | null;
  state: OpState | 'saved' | 'none';
}

interface Props {
  view: QueryView;
  rows: RowModel[];
  cursor: number;
  expanded: ReadonlySet<string>;
  keys: LabelKey[];
  onSelect: (i: number) => void;
  onToggle: (id: string) => void;
  onLabel: (i: number, value: string) => void;
  onRetry: (op: LabelOp) => void;
  describe: (value: string | null) => { text: string; tone: string };
  /** The column the rows are sorted by (see candidateSort.ts); the rows come in that order. */
  sort: CandidateSort;
  /** A header click: sort by that column (again: the other way, then the given order). */
  onSort: (by: SortColumn, run?: string) => void;
}

/** A sortable header's button: not a tab stop (the keyboard belongs to labeling; the "Order by" list and clicks sort). */
function SortButton({ label, by, run, testId, title, cb }: { label: ReactNode; by: SortColumn; run?: string; testId: string; title: string; cb: { current: Props } }): ReactNode {
  const s = ariaSort(shownSort(cb.current), by, run);
  return (
    <button
      className="link-button th-sort"
      data-testid={testId}
      title={title}
      tabIndex={-1}
      onMouseDown={(e) => e.preventDefault()}
      onClick={() => cb.current.onSort(by, run)}
    >
      {label}
      <span aria-hidden="true">{s === 'ascending' ? ' ▲' : s === 'descending' ? ' ▼' : ''}</span>
    </button>
  );
}

function shownSort(p: Pick<Props, 'sort' | 'view'>): CandidateSort {
  return headerSort(p.view, p.sort);
}

/** What a header sorts by (null: not sortable). */
function sortOf(columnId: string): { by: SortColumn; run?: string } | null {
  if (columnId === 'position') return { by: 'position' };
  if (columnId === 'question') return { by: 'title' };
  if (columnId === 'label') return { by: 'label' };
  if (columnId.startsWith('run:')) return { by: 'run', run: columnId.slice(4) };
  return null;
}

const col = createColumnHelper<RowModel>();

function StateCell({ row, onRetry }: { row: RowModel; onRetry: (op: LabelOp) => void }): ReactNode {
  const t = `row-state-${row.i}`;
  switch (row.state) {
    case 'none':
      return <span className="state none" data-testid={t} data-state="none" />;
    case 'pending':
    case 'saving':
      return (
        <span className="state pending" data-testid={t} data-state="pending" title={row.op?.busy ? 'being saved: the server is busy with it' : 'being saved'}>
          saving…
        </span>
      );
    case 'retrying':
      return (
        <span className="state retrying" data-testid={t} data-state="retrying" title={row.op?.error}>
          queued — retrying
        </span>
      );
    case 'failed':
      return (
        <span className="state failed" data-testid={t} data-state="failed" title={row.op?.error}>
          not saved{' '}
          <button
            className="link-button"
            data-testid={`row-retry-${row.i}`}
            onClick={(e) => {
              e.stopPropagation();
              (e.currentTarget as HTMLElement).blur();
              if (row.op) onRetry(row.op);
            }}
          >
            retry
          </button>
        </span>
      );
    case 'saved':
      return (
        <span className="state saved" data-testid={t} data-state="saved" title="saved">
          saved ✓
        </span>
      );
  }
}

export function CandidateTable(p: Props): ReactNode {
  const { view, rows, cursor, expanded } = p;
  const cb = useRef(p);
  cb.current = p;

  const columns = useMemo(() => {
    const cols: Array<ColumnDef<RowModel, any>> = [ // eslint-disable-line @typescript-eslint/no-explicit-any
      col.display({ id: 'n', header: '#', cell: (c) => c.row.original.i + 1, meta: { className: 'num narrow' } }),
    ];
    if (!view.blind) {
      cols.push(
        col.display({
          id: 'position',
          header: () => <SortButton label="Pool pos." by="position" testId="cand-sort-position" title="Sort by the position in the retriever's order; again for the reverse." cb={cb} />,
          cell: (c) => c.row.original.c.position + 1,
          meta: { className: 'num narrow' },
        }),
      );
    }
    cols.push(
      col.display({
        id: 'question',
        header: () => <SortButton label="Candidate" by="title" testId="cand-sort-title" title="Sort by title; again for the reverse, a third time for the given order." cb={cb} />,
        cell: (c) => {
          const { c: cand, i } = c.row.original;
          const terms = termSet(cand.sharedTerms);
          const q = cand.question;
          return (
            <div className="cand">
              {cb.current.view.focus === cand.id && (
                <span className="small ok" data-testid="candidate-focus" title="The labeling order (decide-rankers-mtc) asks for this pair next; the query's other candidates can be labeled too.">
                  asked next ·{' '}
                </span>
              )}
              <button
                className="cand-title link-button"
                dir="auto"
                data-testid={`row-toggle-${i}`}
                onClick={(e) => {
                  e.stopPropagation();
                  (e.currentTarget as HTMLElement).blur();
                  cb.current.onToggle(cand.id);
                }}
                aria-expanded={cb.current.expanded.has(cand.id)}
              >
                {q?.title ? highlight(q.title, terms) : <span className="muted">{cand.id}</span>}
              </button>
              {q && !cb.current.expanded.has(cand.id) && <div className="cand-snippet" dir="auto">{highlight(snippet(q.body), terms)}</div>}
            </div>
          );
        },
      }),
    );
    for (const run of view.runNames) {
      cols.push(
        col.display({
          id: `run:${run}`,
          header: () => (
            <SortButton
              label={run}
              by="run"
              run={run}
              testId={`run-col-${run}`}
              title={`${run}: rank (score). Sort by ${run}'s rank, best first; again for the reverse, a third time for the given order.`}
              cb={cb}
            />
          ),
          cell: (c) => {
            const r = c.row.original.c.runs[run];
            return r ? (
              <span title={`score ${r.score}`}>
                {r.rank} <span className="muted small">({Number.isInteger(r.score) ? r.score : r.score.toFixed(2)})</span>
              </span>
            ) : (
              <span className="muted">—</span>
            );
          },
          meta: { className: 'num' },
        }),
      );
    }
    if (!view.blind && view.candidates.some((c) => Object.keys(c.others).length > 0)) {
      cols.push(
        col.display({
          id: 'others',
          header: () => <span data-testid="others-col">Others</span>,
          cell: (c) => (
            <span className="small">
              {Object.entries(c.row.original.c.others)
                .map(([who, v]) => `${who}: ${cb.current.describe(v).text}`)
                .join(' · ')}
            </span>
          ),
        }),
      );
    }
    cols.push(
      col.display({
        id: 'label',
        header: () => (
          <SortButton
            label="Label"
            by="label"
            testId="cand-sort-label"
            title="Sort by your label (unlabeled first); rows stay put as you label; again for the reverse, a third time for the given order."
            cb={cb}
          />
        ),
        cell: (c) => {
          const { label, i } = c.row.original;
          const d = cb.current.describe(label);
          return (
            <div className="label-cell">
              <span className={`label-pill tone-${d.tone}`} data-testid={`label-${i}`} data-value={label ?? ''}>
                {d.text || <NoValue said="no label" />}
              </span>
              {c.row.original.c.note && (
                <span className="note-mark" data-testid={`note-mark-${i}`} title={`your note: ${c.row.original.c.note}`} role="img" aria-label={`your note: ${c.row.original.c.note}`}>
                  ✎
                </span>
              )}
              <span className="label-buttons">
                {cb.current.keys.map((k) => (
                  <button
                    key={k.key}
                    className={label === k.value ? 'key-button chosen' : 'key-button'}
                    data-testid={`label-btn-${i}-${k.key}`}
                    title={`${k.label} (key ${k.key})`}
                    aria-label={k.label}
                    aria-pressed={label === k.value}
                    tabIndex={-1}
                    onMouseDown={(e) => e.preventDefault()}
                    onClick={(e) => {
                      e.stopPropagation();
                      cb.current.onSelect(i);
                      cb.current.onLabel(i, k.value);
                    }}
                  >
                    {k.key}
                  </button>
                ))}
              </span>
            </div>
          );
        },
      }),
      col.display({ id: 'state', header: 'Saved', cell: (c) => <StateCell row={c.row.original} onRetry={(op) => cb.current.onRetry(op)} />, meta: { className: 'narrow' } }),
    );
    return cols;
  }, [view.blind, view.runNames, view.candidates, p.sort]);

  const table = useAppTable({ data: rows, columns, getCoreRowModel: getCoreRowModel(), getRowId: (r) => r.c.id });

  const currentRow = useRef<HTMLTableRowElement | null>(null);
  useEffect(() => {
    currentRow.current?.scrollIntoView({ block: 'nearest' });
  }, [cursor, view.queryId]);

  const width = table.getVisibleLeafColumns().length;
  return (
    // tabIndex -1: focus returns here after a pool switch (issue 24), so the label keys act at once.
    <table className="data candidates" data-testid="candidates" data-pool={view.pool} data-query={view.queryId} data-blind={view.blind ? 'true' : 'false'} tabIndex={-1} aria-label="Candidates">
      <thead>
        {table.getHeaderGroups().map((hg) => (
          <tr key={hg.id}>
            {hg.headers.map((h) => (
              <th
                key={h.id}
                scope="col"
                className={(h.column.columnDef.meta as { className?: string } | undefined)?.className}
                aria-sort={((o) => (o ? ariaSort(shownSort(p), o.by, o.run) : undefined))(sortOf(h.id))}
              >
                {h.isPlaceholder ? null : flexRender(h.column.columnDef.header, h.getContext())}
              </th>
            ))}
          </tr>
        ))}
      </thead>
      <tbody>
        {table.getRowModel().rows.map((r) => {
          const m = r.original;
          const isCur = m.i === cursor;
          const open = expanded.has(m.c.id);
          return [
            <tr
              key={r.id}
              ref={isCur ? currentRow : undefined}
              className={['cand-row', isCur ? 'current' : '', m.label != null ? 'labeled' : '', m.state === 'failed' ? 'failed' : '', view.focus === m.c.id ? 'focus' : ''].join(' ')}
              data-testid={`candidate-row-${m.i}`}
              data-candidate-id={m.c.id}
              data-focus={view.focus === m.c.id ? 'true' : undefined}
              data-label={m.label ?? ''}
              data-state={m.state}
              aria-selected={isCur}
              onClick={() => p.onSelect(m.i)}
            >
              {r.getVisibleCells().map((cell) => (
                <td key={cell.id} className={(cell.column.columnDef.meta as { className?: string } | undefined)?.className}>
                  {flexRender(cell.column.columnDef.cell, cell.getContext())}
                </td>
              ))}
            </tr>,
            open ? (
              <tr key={`${r.id}:body`} className="cand-expanded" data-testid={`candidate-body-${m.i}`}>
                <td colSpan={width}>
                  <div className="cand-meta small muted">
                    {m.c.id}
                    {m.c.question?.category && ` · ${m.c.question.category}`}
                    {m.c.question?.tags.length ? ` · ${m.c.question.tags.join(', ')}` : ''}
                    {m.c.question?.created && ` · ${m.c.question.created}`}
                  </div>
                  <div className="cand-body" dir="auto">{m.c.question ? highlight(m.c.question.body, termSet(m.c.sharedTerms)) : 'The text of this candidate is not in the workspace.'}</div>
                </td>
              </tr>
            ) : null,
          ];
        })}
      </tbody>
    </table>
  );
}
