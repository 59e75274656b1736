import type { Page } from '../../../contracts/page.ts';
import { EmptyState } from '../page-state.tsx';
import { collectAllPages, downloadCsv, toCsv } from './csv.ts';
import { type Column, DataList } from './data-list.tsx';
import { type ListSearch, sortRows } from './list-search.ts';
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
 * what an empty list means, and the pager. The rows of the page are sorted by the chosen
 * column's text; the export collects every row of the current search.
 *
 * @example
 * <PagedList label="Sites" columns={SITE_COLUMNS} rowKey={(s) => s.id} page={page} search={search}
 *   onSearch={go} searchLabel="Search sites" sortOptions={SITE_SORT_OPTIONS}
 *   empty={{ title: 'No sites yet' }} exportFile="sites.csv" fetchPage={(n, size) => …} />
 */
export function PagedList<T, S extends ListSearch>(props: PagedListProps<T, S>) {
  const { columns, page, search, onSearch, empty } = props;
  const textOf = (row: T, key: string) => columns.find((column) => column.key === key)?.text(row) ?? '';
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
      {page.items.length === 0 ? (
        <EmptyState title={empty.title}>{empty.hint}</EmptyState>
      ) : (
        <DataList
          label={props.label}
          columns={columns}
          rows={sortRows(page.items, search.sort, textOf)}
          rowKey={props.rowKey}
        />
      )}
      <Pager
        page={page.page}
        pageSize={page.pageSize}
        total={page.total}
        onPage={(n) => onSearch({ ...search, page: n })}
      />
    </>
  );
}
