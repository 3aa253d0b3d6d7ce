/**
 * The app's tables (@tanstack/react-table): headers that sort (and say so with aria-sort), an
 * optional filter box over the rows' text, and numbers right-aligned. Columns give what a cell
 * shows and, to be sortable, the value it sorts by.
 */
import { useMemo, useState, type ReactNode } from 'react';
import {
  getCoreRowModel,
  getFilteredRowModel,
  getSortedRowModel,
  useReactTable,
  type TableOptions,
  type ColumnDef,
  type SortingState,
  type Column as TableColumn,
} from '@tanstack/react-table';

export interface Column<T> {
  id: string;
  header: ReactNode;
  /** A tooltip for the header (what the column means). */
  title?: string;
  cell: (row: T) => ReactNode;
  /** The value the column sorts by (null sorts last); no sortValue = not sortable. */
  sortValue?: (row: T) => number | string | null | undefined;
  /** 'num' right-aligns; 'narrow' keeps the column as narrow as its content. */
  className?: string;
  /** Data attributes for the cell (tests). */
  cellTestId?: (row: T) => string | undefined;
  /** More data-* attributes for the cell. */
  cellData?: (row: T) => Record<`data-${string}`, string>;
  /**
   * The id of the column whose cells show this one's value where a window width hides this column
   * (styles.css): its sort button stands in that column's header too, shown only there (.folded-sorts).
   */
  foldsInto?: string;
}

export interface DataTableProps<T> {
  rows: T[];
  columns: Array<Column<T>>;
  rowId: (row: T) => string;
  testId?: string;
  rowTestId?: (row: T) => string | undefined;
  rowClassName?: (row: T) => string | undefined;
  /** The row that is the current one (aria-current; Browse's result whose question is shown). */
  rowCurrent?: (row: T) => boolean;
  onRowClick?: (row: T) => void;
  /** Show a filter box; the text each row is searched in (default: every sortable value). */
  filter?: boolean | ((row: T) => string);
  filterLabel?: string;
  initialSort?: { id: string; desc?: boolean };
  className?: string;
  /** A caption for screen readers (and tests). */
  caption?: string;
  empty?: ReactNode;
}

/**
 * useReactTable for every table of the app, without automatic state resets when the rows change: a
 * reset is a state update, so rows given as a new array on every render (e.g. `x?.rows ?? []`) would
 * re-render the table forever in microtasks (the Pools screen froze that way; no table here pages or
 * expands rows, which is what the resets are for).
 */
export function useAppTable<T>(options: TableOptions<T>): ReturnType<typeof useReactTable<T>> {
  return useReactTable({ ...options, autoResetAll: false });
}

export function DataTable<T>(p: DataTableProps<T>): ReactNode {
  const [sorting, setSorting] = useState<SortingState>(p.initialSort ? [{ id: p.initialSort.id, desc: p.initialSort.desc ?? false }] : []);
  const [globalFilter, setGlobalFilter] = useState('');
  const filterText = useMemo(() => {
    if (typeof p.filter === 'function') return p.filter;
    return (row: T): string =>
      p.columns
        .map((c) => (c.sortValue ? c.sortValue(row) : null))
        .filter((v) => v != null)
        .join(' ');
  }, [p.filter, p.columns]);

  const columns = useMemo<Array<ColumnDef<T>>>(
    () =>
      p.columns.map((c) => ({
        id: c.id,
        accessorFn: c.sortValue ? (row: T) => c.sortValue!(row) ?? null : () => null,
        header: () => c.header,
        cell: (ctx) => c.cell(ctx.row.original),
        enableSorting: !!c.sortValue,
        sortUndefined: 'last',
        sortingFn: (a, b, id) => {
          const x = a.getValue(id) as number | string | null;
          const y = b.getValue(id) as number | string | null;
          if (x == null && y == null) return 0;
          if (x == null) return 1;
          if (y == null) return -1;
          return typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), undefined, { numeric: true });
        },
        meta: c,
      })),
    [p.columns],
  );

  const table = useAppTable({
    data: p.rows,
    columns,
    state: { sorting, globalFilter },
    onSortingChange: setSorting,
    onGlobalFilterChange: setGlobalFilter,
    globalFilterFn: (row, _id, value: string) => filterText(row.original).toLowerCase().includes(value.toLowerCase()),
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    getRowId: (r) => p.rowId(r),
  });

  const rows = table.getRowModel().rows;
  return (
    <div className="data-table">
      {p.filter && (
        <div className="table-tools">
          <label className="inline small">
            {p.filterLabel ?? 'Filter'}
            <input
              type="search"
              value={globalFilter}
              onChange={(e) => setGlobalFilter(e.target.value)}
              placeholder="type to filter"
              data-testid={p.testId ? `${p.testId}-filter` : undefined}
              size={18}
            />
          </label>
          {globalFilter && (
            <span className="small muted" role="status">
              {rows.length} of {p.rows.length}
            </span>
          )}
        </div>
      )}
      <div className="table-wrap">
        <table className={`data ${p.className ?? ''}`} data-testid={p.testId}>
          {p.caption && <caption className="visually-hidden">{p.caption}</caption>}
          <thead>
            {table.getHeaderGroups().map((hg) => (
              <tr key={hg.id}>
                {hg.headers.map((h) => {
                  const c = h.column.columnDef.meta as Column<T>;
                  const sorted = h.column.getIsSorted();
                  const sortable = h.column.getCanSort();
                  const folded = p.columns.filter((f) => f.foldsInto === c.id && f.sortValue);
                  return (
                    <th
                      key={h.id}
                      scope="col"
                      className={c.className}
                      title={c.title}
                      aria-sort={sortable ? (sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none') : undefined}
                    >
                      {sortable ? <SortButton column={h.column} header={c.header} testId={p.testId && `${p.testId}-sort-${c.id}`} /> : c.header}
                      {folded.length > 0 && (
                        <span className="folded-sorts">
                          {folded.map((f) => (
                            <SortButton key={f.id} column={table.getColumn(f.id)!} header={f.header} testId={p.testId && `${p.testId}-sort-${f.id}-folded`} folded />
                          ))}
                        </span>
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr
                key={r.id}
                data-testid={p.rowTestId?.(r.original)}
                className={p.rowClassName?.(r.original)}
                aria-current={p.rowCurrent?.(r.original) || undefined}
                onClick={p.onRowClick ? () => p.onRowClick!(r.original) : undefined}
              >
                {r.getVisibleCells().map((cell) => {
                  const c = cell.column.columnDef.meta as Column<T>;
                  return (
                    <td key={cell.id} className={c.className} data-testid={c.cellTestId?.(r.original)} {...c.cellData?.(r.original)}>
                      {/* Called, not mounted as a component (flexRender): a screen's columns are new functions at each render, and as
                          component types they remounted every cell then, dropping the focus of a button in it to <body>. */}
                      {c.cell(r.original)}
                    </td>
                  );
                })}
              </tr>
            ))}
            {rows.length === 0 && p.empty && (
              <tr>
                <td colSpan={p.columns.length} className="muted">
                  {p.empty}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/**
 * A header's sort button: by its column, then the reverse, then the rows' own order. `folded`: it
 * stands in another column's header (Column.foldsInto), so it says what it sorts by and how, the
 * th's aria-sort being that other column's.
 */
function SortButton<T>({ column, header, testId, folded }: { column: TableColumn<T>; header: ReactNode; testId: string | undefined; folded?: boolean }): ReactNode {
  const sorted = column.getIsSorted();
  return (
    <button type="button" className="sort-button" onClick={column.getToggleSortingHandler()} data-testid={testId}>
      {folded && <span className="visually-hidden">sort by </span>}
      {header}
      <span aria-hidden="true">{sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ''}</span>
      {folded && sorted && <span className="visually-hidden">{sorted === 'asc' ? ', ascending' : ', descending'}</span>}
    </button>
  );
}

/** What useTableSort gives: the rows as sorted and filtered, the sortable headers and the filter. */
export interface TableSort<T> {
  rows: T[];
  header: (id: string, label: ReactNode, p?: { className?: string; title?: string; testId?: string }) => ReactNode;
  filter: string;
  setFilter: (s: string) => void;
  /** Whether a column sorts the rows now. */
  sorted: boolean;
  /** Back to the rows' own order. */
  clearSort: () => void;
}

/**
 * Sorting (and filtering) for a table that renders its own rows (e.g. rows with detail rows
 * under them): the same @tanstack/react-table state as DataTable, with `header(id, label)`
 * giving a sortable <th> that exposes aria-sort.
 */
export function useTableSort<T>(
  rows: T[],
  sorters: Record<string, (row: T) => number | string | null | undefined>,
  opts: { rowId: (row: T) => string; filterText?: (row: T) => string; initialSort?: { id: string; desc?: boolean } },
): TableSort<T> {
  const [sorting, setSorting] = useState<SortingState>(opts.initialSort ? [{ id: opts.initialSort.id, desc: opts.initialSort.desc ?? false }] : []);
  const [globalFilter, setGlobalFilter] = useState('');
  const columns = useMemo<Array<ColumnDef<T>>>(
    () =>
      Object.entries(sorters).map(([id, get]) => ({
        id,
        accessorFn: (r: T) => get(r) ?? null,
        sortingFn: (a, b, cid) => {
          const x = a.getValue(cid) as number | string | null;
          const y = b.getValue(cid) as number | string | null;
          if (x == null && y == null) return 0;
          if (x == null) return 1;
          if (y == null) return -1;
          return typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), undefined, { numeric: true });
        },
      })),
    // The sorters are recreated on each render; their ids are what matter.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [Object.keys(sorters).join('\u0000')],
  );
  const filterText = opts.filterText;
  const table = useAppTable({
    data: rows,
    columns,
    state: { sorting, globalFilter },
    onSortingChange: setSorting,
    onGlobalFilterChange: setGlobalFilter,
    globalFilterFn: (row, _id, value: string) => (filterText ? filterText(row.original) : '').toLowerCase().includes(value.toLowerCase()),
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    getRowId: (r) => opts.rowId(r),
  });
  const header = (id: string, label: ReactNode, p?: { className?: string; title?: string; testId?: string }): ReactNode => {
    const col = table.getColumn(id);
    const sorted = col?.getIsSorted() ?? false;
    return (
      <th key={id} scope="col" className={p?.className} title={p?.title} aria-sort={col ? (sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none') : undefined}>
        {col ? (
          <button type="button" className="sort-button" onClick={col.getToggleSortingHandler()} data-testid={p?.testId}>
            {label}
            <span aria-hidden="true">{sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ''}</span>
          </button>
        ) : (
          label
        )}
      </th>
    );
  };
  return {
    rows: table.getRowModel().rows.map((r) => r.original),
    header,
    filter: globalFilter,
    setFilter: setGlobalFilter,
    sorted: sorting.length > 0,
    clearSort: () => setSorting([]),
  };
}

/** The filter box of useTableSort. */
export function FilterBox({ value, onChange, label, testId, shown, total }: { value: string; onChange: (s: string) => void; label: string; testId?: string; shown: number; total: number }): ReactNode {
  return (
    <div className="table-tools">
      <label className="inline small">
        {label}
        <input
          type="search"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          // Enter leaves the box with the filter kept: the screen's keys (j/k, labels) act on the rows shown.
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              e.currentTarget.blur();
            }
          }}
          placeholder="type to filter"
          title="Enter keeps the filter and gives the keys back to the table"
          data-testid={testId}
          size={18}
        />
      </label>
      {value && (
        <span className="small muted" role="status">
          {shown} of {total}
        </span>
      )}
    </div>
  );
}
