import { Button, Group, Select, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { FormEvent } from 'react';
import { ExportCsvButton } from './export-csv-button.tsx';
import type { ListSearch } from './list-search.ts';

export interface SortOption {
  value: string;
  label: string;
}

interface ListToolbarProps<S extends ListSearch> {
  /** e.g. "Search sites". */
  searchLabel: string;
  searchHint?: string | undefined;
  search: S;
  sortOptions: readonly SortOption[];
  onChange: (next: S) => void;
  /** Collects every row of the current filter and saves it as CSV. */
  onExport: () => Promise<void>;
}

const DEFAULT_SORT = '';

/**
 * Search, sort and CSV export above a list. A new search starts again at page 0; sort and
 * search live in the URL, so a reload or a shared link shows the same list.
 */
export function ListToolbar<S extends ListSearch>({
  searchLabel,
  searchHint,
  search,
  sortOptions,
  onChange,
  onExport,
}: ListToolbarProps<S>) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const q = String(new FormData(event.currentTarget).get('q') ?? '').trim();
    onChange({ ...search, page: 0, ...(q ? { q } : { q: undefined }) });
  };
  return (
    <Group align="flex-end" gap="sm" wrap="wrap">
      <search style={{ flex: '1 1 260px' }}>
        <form onSubmit={submit}>
          <Group align="flex-end" gap="xs" wrap="nowrap">
            <TextInput
              key={search.q ?? ''}
              name="q"
              label={searchLabel}
              description={searchHint}
              defaultValue={search.q ?? ''}
              leftSection={<IconSearch size={16} aria-hidden />}
              style={{ flex: 1 }}
              maxLength={200}
            />
            <Button type="submit" variant="light">
              Search
            </Button>
          </Group>
        </form>
      </search>
      <Select
        label="Sort by"
        data={[{ value: DEFAULT_SORT, label: 'List order' }, ...sortOptions]}
        value={search.sort ?? DEFAULT_SORT}
        allowDeselect={false}
        onChange={(value) =>
          onChange({ ...search, page: 0, ...(value ? { sort: value } : { sort: undefined }) })
        }
        w={200}
      />
      <ExportCsvButton onExport={onExport} />
    </Group>
  );
}

interface PagerProps {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
}

/** Previous and next page, with where the person is; page numbers in the URL start at 0 (a page past the end is the list's to explain). */
export function Pager({ page, pageSize, total, onPage }: PagerProps) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const first = total === 0 ? 0 : page * pageSize + 1;
  const last = Math.min(total, (page + 1) * pageSize);
  return (
    <Group justify="space-between" component="nav" aria-label="Pages">
      <Text size="sm" aria-live="polite">
        {total === 0 ? 'No results' : `${first}–${last} of ${total} · page ${page + 1} of ${pages}`}
      </Text>
      <Group gap="xs">
        <Button variant="default" size="xs" disabled={page <= 0} onClick={() => onPage(page - 1)}>
          Previous page
        </Button>
        <Button variant="default" size="xs" disabled={page + 1 >= pages} onClick={() => onPage(page + 1)}>
          Next page
        </Button>
      </Group>
    </Group>
  );
}
