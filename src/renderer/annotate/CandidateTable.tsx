import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { createColumnHelper, flexRender, getCoreRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table';
import type { CandidateView, QueryView } from '../../shared/contract';
import { highlight, termSet } from '../lib/highlight';
import { snippet } from '../lib/format';
import type { LabelKey } from './keys';
import type { LabelOp, OpState } from './labelQueue';

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
  /** The ranker the rows are ordered by ('' = pool order); open pools only. */
  order?: string;
  onOrder?: (run: string) => void;
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
        <span className="state pending" data-testid={t} data-state="pending" title="being saved">
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
        col.display({ id: 'position', header: 'Pool pos.', cell: (c) => c.row.original.c.position + 1, meta: { className: 'num narrow', title: "position in the retriever's order" } }),
      );
    }
    cols.push(
      col.display({
        id: 'question',
        header: 'Candidate',
        cell: (c) => {
          const { c: cand, i } = c.row.original;
          const terms = termSet(cand.sharedTerms);
          const q = cand.question;
          return (
            <div className="cand">
              <button
                className="cand-title link-button"
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
              {q && !cb.current.expanded.has(cand.id) && <div className="cand-snippet">{highlight(snippet(q.body), terms)}</div>}
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
            <button
              className="link-button th-sort"
              data-testid={`run-col-${run}`}
              title={`${run}: rank (score). Order the candidates by ${run}; again for the pool order.`}
              tabIndex={-1}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => cb.current.onOrder?.(cb.current.order === run ? '' : run)}
            >
              {run}
              {cb.current.order === run ? ' ▲' : ''}
            </button>
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
        header: 'Label',
        cell: (c) => {
          const { label, i } = c.row.original;
          const d = cb.current.describe(label);
          return (
            <div className="label-cell">
              <span className={`label-pill tone-${d.tone}`} data-testid={`label-${i}`} data-value={label ?? ''}>
                {d.text || '·'}
              </span>
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
  }, [view.blind, view.runNames, view.candidates, p.order]);

  const table = useReactTable({ data: rows, columns, getCoreRowModel: getCoreRowModel(), getRowId: (r) => r.c.id });

  const currentRow = useRef<HTMLTableRowElement | null>(null);
  useEffect(() => {
    currentRow.current?.scrollIntoView({ block: 'nearest' });
  }, [cursor, view.queryId]);

  const width = table.getVisibleLeafColumns().length;
  return (
    <table className="data candidates" data-testid="candidates" data-blind={view.blind ? 'true' : 'false'}>
      <thead>
        {table.getHeaderGroups().map((hg) => (
          <tr key={hg.id}>
            {hg.headers.map((h) => (
              <th
                key={h.id}
                scope="col"
                className={(h.column.columnDef.meta as { className?: string } | undefined)?.className}
                title={(h.column.columnDef.meta as { title?: string } | undefined)?.title}
                aria-sort={h.id.startsWith('run:') ? (p.order === h.id.slice(4) ? 'ascending' : 'none') : h.id === 'position' ? (!p.order ? 'ascending' : 'none') : undefined}
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
              className={['cand-row', isCur ? 'current' : '', m.label != null ? 'labeled' : '', m.state === 'failed' ? 'failed' : ''].join(' ')}
              data-testid={`candidate-row-${m.i}`}
              data-candidate-id={m.c.id}
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
                  <div className="cand-body">{m.c.question ? highlight(m.c.question.body, termSet(m.c.sharedTerms)) : 'The text of this candidate is not in the workspace.'}</div>
                </td>
              </tr>
            ) : null,
          ];
        })}
      </tbody>
    </table>
  );
}
