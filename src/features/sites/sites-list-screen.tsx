import { Button, Group, Stack, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useRuntime } from '../../app/runtime-context.tsx';
import { collectAllPages, downloadCsv, toCsv } from '../../components/lists/csv.ts';
import { DataList } from '../../components/lists/data-list.tsx';
import type { ListSearch } from '../../components/lists/list-search.ts';
import { sortRows } from '../../components/lists/list-search.ts';
import { ListToolbar, Pager } from '../../components/lists/list-toolbar.tsx';
import { EmptyState } from '../../components/page-state.tsx';
import { SITE_COLUMNS, SITE_SORT_OPTIONS, siteText } from './site-columns.tsx';
import { fetchSitesPage } from './sites-api.ts';

const route = getRouteApi('/_shell/sites-list');

/** Sites: every site the person sees, searchable by name, address, owner or device serial. */
export function SitesListScreen() {
  const { configApi } = useRuntime();
  const { user, page } = route.useLoaderData();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const go = (next: ListSearch) => void navigate({ search: next });
  const rows = sortRows(page.items, search.sort, siteText);
  const exportCsv = async () => {
    const all = await collectAllPages((n, size) => fetchSitesPage(configApi, user.id, n, search.q, size));
    downloadCsv('sites.csv', toCsv(all, SITE_COLUMNS));
  };
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1} size="h2">
          Sites
        </Title>
        {user.role === 'owner' ? null : (
          <Button component={Link} to="/create-site" leftSection={<IconPlus size={16} aria-hidden />}>
            Create site
          </Button>
        )}
      </Group>
      <ListToolbar
        searchLabel="Search sites"
        searchHint="Name, address, owner or a device serial"
        search={search}
        sortOptions={SITE_SORT_OPTIONS}
        onChange={go}
        onExport={exportCsv}
      />
      {page.items.length === 0 ? (
        <EmptyState title={search.q ? `No site matches “${search.q}”` : 'No sites yet'}>
          {search.q
            ? 'Try another name, address, owner or serial.'
            : 'Sites you create or are given appear here.'}
        </EmptyState>
      ) : (
        <DataList label="Sites" columns={SITE_COLUMNS} rows={rows} rowKey={(site) => site.id} />
      )}
      <Pager
        page={page.page}
        pageSize={page.pageSize}
        total={page.total}
        onPage={(n) => go({ ...search, page: n })}
      />
    </Stack>
  );
}
