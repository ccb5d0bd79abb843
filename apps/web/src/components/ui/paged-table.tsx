'use client';

import { pageMode } from '@music/api-router/schemas';
import { type ReactNode, useEffect, useId, useRef } from 'react';
import { Button, Empty, Pager, QueryView } from '@/components/ui';
import { sortDirection, toggleSort } from '@/lib/url-state';
import './paged-table.css';

/** A list answer; the console reads lists by page, never with `cursor`, so `total` is there. */
interface ListPage<Row> {
  data: Row[];
  pagination: { limit: number; total: number } | { limit: number; nextCursor: string | null };
}

/** The page sizes a list offers: the contract's `limit` goes up to 100. */
export const PAGE_SIZES = [10, 20, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];

/**
 * A list screen's paging: its page (from 1) and its size; `setLimit` (given only by a screen that
 * offers a choice of page size, which its query must then use) shows the page-size select.
 */
export interface Paging {
  page: number;
  limit: number;
  setPage: (page: number) => void;
  setLimit?: (limit: PageSize) => void;
}

/** The page that shows the first row of `page` once `limit` rows make a page instead of `from`. */
export function pageAfterResize(page: number, from: number, limit: number): number {
  return Math.floor(((page - 1) * from) / limit) + 1;
}

/**
 * The paging of a list whose view is in the address (useUrlState with `page` and `limit`): a new
 * page size keeps the first row of the page in view (`pageAfterResize`).
 */
export function urlPaging(
  view: { page: number; limit: PageSize },
  update: (changes: { page?: number; limit?: PageSize }) => void,
): Paging {
  return {
    page: view.page,
    limit: view.limit,
    setPage: (page) => update({ page }),
    setLimit: (limit) => update({ limit, page: pageAfterResize(view.page, view.limit, limit) }),
  };
}

/**
 * Says "Searching…" while `busy`: a list whose new search, filter or page is on its way while the
 * last answer stays on screen. The live region is always there, empty and hidden when idle, so
 * screen readers announce the change rather than miss a region that appears with its text.
 */
export function SearchingStatus({ busy }: { busy: boolean }) {
  return (
    <p className={busy ? 'loading' : 'sr-only'} role="status" aria-live="polite">
      {busy && (
        <>
          <span className="spinner" aria-hidden="true" /> Searching…
        </>
      )}
    </p>
  );
}

/** A column: its header, and the contract's sort field it orders by, if it can. */
export interface Column {
  label: string;
  sort?: string;
}

/** A list's order (its `sort` parameter, version 1.1) and how to ask for another. */
export interface Sorting {
  value: string;
  onSort: (sort: string) => void;
}

function HeaderCell({ column, sorting }: { column: Column; sorting: Sorting | undefined }) {
  const { label, sort: field } = column;
  if (!label) {
    return (
      <th scope="col">
        <span className="sr-only">Actions</span>
      </th>
    );
  }
  if (!field || !sorting) return <th scope="col">{label}</th>;
  const direction = sortDirection(sorting.value, field);
  return (
    <th scope="col" className="sortable" aria-sort={direction}>
      <button
        type="button"
        className="sort-button"
        onClick={() => sorting.onSort(toggleSort(sorting.value, field))}
      >
        {label}
        <span className="sort-mark" aria-hidden="true">
          {direction === 'ascending' ? '▲' : direction === 'descending' ? '▼' : '↕'}
        </span>
      </button>
    </th>
  );
}

/**
 * Rows a user can pick for an action on many (bulk actions): a check box at the start of each
 * row, named by `label`, and one in the header for the whole page (mixed when some are picked).
 * `disabled` rows (on their way out) cannot be picked.
 */
export interface RowSelection<Row> {
  isSelected: (row: Row) => boolean;
  onChange: (rows: Row[], selected: boolean) => void;
  label: (row: Row) => string;
  disabled?: (row: Row) => boolean;
}

function SelectPage<Row>({ rows, selection }: { rows: Row[]; selection: RowSelection<Row> }) {
  const open = rows.filter((row) => !selection.disabled?.(row));
  const picked = open.filter((row) => selection.isSelected(row)).length;
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = picked > 0 && picked < open.length;
  });
  return (
    <th scope="col" className="select-cell">
      <label className="select-label">
        <input
          ref={ref}
          type="checkbox"
          checked={open.length > 0 && picked === open.length}
          disabled={open.length === 0}
          onChange={(event) => selection.onChange(open, event.target.checked)}
        />
        <span className="select-words">
          <span className="sr-only">Select every row on this page</span>
          <span aria-hidden="true">All</span>
        </span>
      </label>
    </th>
  );
}

/** The page-size choice beside the pager. */
function PageSizeSelect({ limit, onChange }: { limit: number; onChange: (limit: PageSize) => void }) {
  const id = useId();
  return (
    <div className="page-size">
      <label htmlFor={id}>Rows per page</label>
      <select id={id} value={limit} onChange={(e) => onChange(Number(e.target.value) as PageSize)}>
        {PAGE_SIZES.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * A page of a list query as a table with its pager under it: the frame of every list screen.
 * A column is its header, or a Column whose `sort` field makes the header a button that orders
 * the list by it (with `sorting`; ascending first, then descending, shown by `aria-sort`). A
 * column named '' holds the rows' actions (its header is for screen readers only); a column
 * given as `false` is left out. `row` gives a row's cells; `paging` is the screen's paging.
 * While the query shows the last answer as a placeholder (`placeholderData`) for a new one, the
 * rows stay, the table is marked busy and "Searching…" is shown above it. With `selection`, each
 * row starts with a check box (see RowSelection); `rowClass` gives a row's class, if any.
 */
export function PagedTable<Row extends { id: string }>({
  query,
  empty,
  columns,
  row,
  paging: { page, limit, setPage, setLimit },
  sorting,
  selection,
  rowClass,
}: {
  query: {
    isPending: boolean;
    isError: boolean;
    error: unknown;
    data: ListPage<Row> | undefined;
    isPlaceholderData?: boolean;
  };
  empty: ReactNode;
  columns: Array<string | Column | false>;
  row: (item: Row) => ReactNode;
  paging: Paging;
  sorting?: Sorting;
  selection?: RowSelection<Row>;
  rowClass?: (row: Row) => string | undefined;
}) {
  const searching = query.isPlaceholderData === true;
  const shown = columns.flatMap((column) =>
    column === false ? [] : [typeof column === 'string' ? { label: column } : column],
  );
  const sortable = sorting !== undefined && shown.some((column) => column.sort);
  return (
    <QueryView query={query}>
      {(data) => (
        <>
          <SearchingStatus busy={searching} />
          {data.data.length === 0 ? (
            // The last answer's emptiness says nothing yet about the filters now on their way.
            !searching &&
            (page > 1 && pageMode(data.pagination).total > 0 ? (
              // A page past the end (an old link, rows deleted since): the way back to the start.
              <Empty>
                There is no page {page} any more.{' '}
                <Button variant="ghost" onClick={() => setPage(1)}>
                  Go to the first page
                </Button>
              </Empty>
            ) : (
              <Empty>{empty}</Empty>
            ))
          ) : (
            <>
              <table
                className={sortable ? 'table table-sortable' : 'table'}
                aria-busy={searching || undefined}
              >
                <thead>
                  <tr>
                    {selection && <SelectPage rows={data.data} selection={selection} />}
                    {shown.map((column) => (
                      <HeaderCell key={column.label || 'actions'} column={column} sorting={sorting} />
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {data.data.map((item) => (
                    <tr key={item.id} className={rowClass?.(item)}>
                      {selection && (
                        <td className="select-cell">
                          <input
                            type="checkbox"
                            aria-label={selection.label(item)}
                            checked={selection.isSelected(item)}
                            disabled={selection.disabled?.(item)}
                            onChange={(event) => selection.onChange([item], event.target.checked)}
                          />
                        </td>
                      )}
                      {row(item)}
                    </tr>
                  ))}
                </tbody>
              </table>
              {setLimit ? (
                <div className="pager-bar">
                  <Pager page={page} limit={limit} total={pageMode(data.pagination).total} onPage={setPage} />
                  <PageSizeSelect limit={limit} onChange={setLimit} />
                </div>
              ) : (
                <Pager page={page} limit={limit} total={pageMode(data.pagination).total} onPage={setPage} />
              )}
            </>
          )}
        </>
      )}
    </QueryView>
  );
}
