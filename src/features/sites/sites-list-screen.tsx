import { Button, Stack } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useRuntime } from '../../app/runtime-context.tsx';
import type { ListSearch } from '../../components/lists/list-search.ts';
import { PagedList } from '../../components/lists/paged-list.tsx';
import { ScreenHeader } from '../../components/screen-header.tsx';
import { SITE_COLUMNS, SITE_SORT_OPTIONS } from './site-columns.tsx';
import { fetchSitesPage } from './sites-api.ts';

const route = getRouteApi('/_shell/sites-list');

/** Sites: every site the person sees, searchable by name, address, owner or device serial. */
export function SitesListScreen() {
  const { configApi } = useRuntime();
  const { user, page, mayCreateSite } = route.useLoaderData();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const go = (next: ListSearch) => void navigate({ search: next });
  return (
    <Stack gap="md">
      <ScreenHeader
        title="Sites"
        actions={
          mayCreateSite ? (
            <Button component={Link} to="/create-site" leftSection={<IconPlus size={16} aria-hidden />}>
              Create site
            </Button>
          ) : null
        }
      />
      <PagedList
        label="Sites"
        columns={SITE_COLUMNS}
        rowKey={(site) => site.id}
        page={page}
        search={search}
        onSearch={go}
        searchLabel="Search sites"
        searchHint="Name, address, owner or a device serial"
        sortOptions={SITE_SORT_OPTIONS}
        empty={
          search.q
            ? { title: `No site matches “${search.q}”`, hint: 'Try another name, address, owner or serial.' }
            : { title: 'No sites yet', hint: 'Sites you create or are given appear here.' }
        }
        exportFile="sites.csv"
        fetchPage={(n, size) => fetchSitesPage(configApi, user.id, { ...search, page: n }, size)}
      />
    </Stack>
  );
}
