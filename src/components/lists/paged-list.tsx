import { Anchor, Group } from '@mantine/core';
import { toCsv } from '../../../contracts/csv.ts';
import type { Page } from '../../../contracts/page.ts';
import { EmptyState } from '../page-state.tsx';
import { collectAllPages, downloadCsv } from './csv.ts';
import { type Column, DataList } from './data-list.tsx';
import type { ListSearch } from './list-search.ts';
import { ListToolbar, Pager, type SortOption } from './list-toolbar.tsx';

export interface PagedListProps<T, S extends ListSearch> {
  /** Names the table (or the cards) for screen readers, e.g. "Sites". */
  label: string;
  columns: readonly Column<T>[];
  rowKey: (row: T) => string | number;
  /** The page the route's loader fetched for `search`. */
  page: Page<T>;
  /** The list's URL state: page, search text, sort (and whatever filter the screen adds). */
  search: S;
  /** Goes to another page, search or sort: the screen navigates, the loader fetches. */
  onSearch: (next: S) => void;
  /** e.g. "Search sites", with the hint under the field. */
  searchLabel: string;
  searchHint?: string;
  sortOptions: readonly SortOption[];
  /** What the empty list says: that nothing matches the search, or that there is nothing yet. */
  empty: { title: string; hint?: string };
  /** The CSV file's name, and how to fetch page `n` of `size` rows of the whole list for it. */
  exportFile: string;
  fetchPage: (n: number, size: number) => Promise<{ items: T[]; total: number }>;
}

/**
 * A list screen's body: search, sort and CSV export above the rows, a table (cards on a phone),
 * what an empty list means, and the pager. Search and sort are the server's, across every page
 * (the loader sends them); the export collects every row of the current search in that order.
 * A page past the end (a stale link, a list that shrank) says that it does not exist and links
 * to the first and the last page.
 *
 * @example
 * <PagedList label="Sites" columns={SITE_COLUMNS} rowKey={(s) => s.id} page={page} search={search}
 *   onSearch={go} searchLabel="Search sites" sortOptions={SITE_SORT_OPTIONS}
 *   empty={{ title: 'No sites yet' }} exportFile="sites.csv" fetchPage={(n, size) => …} />
 */
export function PagedList<T, S extends ListSearch>(props: PagedListProps<T, S>) {
  const { columns, page, search, onSearch, empty } = props;
  const pages = Math.max(1, Math.ceil(page.total / page.pageSize));
  const pastTheEnd = page.items.length === 0 && page.page > 0;
  const exportCsv = async () => {
    const all = await collectAllPages(props.fetchPage);
    downloadCsv(props.exportFile, toCsv(all, columns));
  };
  return (
    <>
      <ListToolbar
        searchLabel={props.searchLabel}
        searchHint={props.searchHint}
        search={search}
        sortOptions={props.sortOptions}
        onChange={onSearch}
        onExport={exportCsv}
      />
      {pastTheEnd ? (
        <EmptyState title={`Page ${page.page + 1} does not exist`}>
          {page.total === 0
            ? 'Nothing matches now. '
            : `This list has ${pages === 1 ? '1 page' : `${pages} pages`} of ${page.pageSize} rows. `}
          <Group component="span" gap="md" justify="center" mt="xs">
            <Anchor component="button" type="button" onClick={() => onSearch({ ...search, page: 0 })}>
              Go to the first page
            </Anchor>
            {pages > 1 ? (
              <Anchor
                component="button"
                type="button"
                onClick={() => onSearch({ ...search, page: pages - 1 })}
              >
                Go to the last page
              </Anchor>
            ) : null}
          </Group>
        </EmptyState>
      ) : page.items.length === 0 ? (
        <EmptyState title={empty.title}>{empty.hint}</EmptyState>
      ) : (
        <DataList label={props.label} columns={columns} rows={page.items} rowKey={props.rowKey} />
      )}
      {pastTheEnd ? null : (
        <Pager
          page={page.page}
          pageSize={page.pageSize}
          total={page.total}
          onPage={(n) => onSearch({ ...search, page: n })}
        />
      )}
    </>
  );
}
