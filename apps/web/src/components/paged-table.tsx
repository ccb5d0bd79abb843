'use client';

import { type ReactNode, useState } from 'react';
import { Pager, QueryView } from '@/components/ui';

interface ListPage<Row> {
  data: Row[];
  pagination: { total: number };
}

/** A list screen's paging: its page (from 1) and its size; `reset(change)` changes a filter and goes back to page 1. */
export function usePaging(limit: number) {
  const [page, setPage] = useState(1);
  const reset = (change: () => void) => {
    change();
    setPage(1);
  };
  return { page, limit, setPage, reset };
}

/**
 * A page of a list query as a table with its pager under it: the frame of every list screen.
 * A column named '' holds the rows' actions (its header is for screen readers only); a column
 * given as `false` is left out. `row` gives a row's cells; `paging` is the screen's usePaging.
 */
export function PagedTable<Row extends { id: string }>({
  query,
  empty,
  columns,
  row,
  paging: { page, limit, setPage },
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; data: ListPage<Row> | undefined };
  empty: ReactNode;
  columns: Array<string | false>;
  row: (item: Row) => ReactNode;
  paging: { page: number; limit: number; setPage: (page: number) => void };
}) {
  return (
    <QueryView query={query} isEmpty={(data) => data.data.length === 0} empty={empty}>
      {(data) => (
        <>
          <table className="table">
            <thead>
              <tr>
                {columns.map((name) =>
                  name === false ? null : (
                    <th scope="col" key={name}>
                      {name || <span className="sr-only">Actions</span>}
                    </th>
                  ),
                )}
              </tr>
            </thead>
            <tbody>
              {data.data.map((item) => (
                <tr key={item.id}>{row(item)}</tr>
              ))}
            </tbody>
          </table>
          <Pager page={page} limit={limit} total={data.pagination.total} onPage={setPage} />
        </>
      )}
    </QueryView>
  );
}
