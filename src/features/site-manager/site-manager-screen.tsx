import { Anchor, Card, Stack, Text, Title } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import type { Site } from '../../../contracts/sites.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { AnchorLink } from '../../components/anchor-link.tsx';
import type { Column } from '../../components/lists/data-list.tsx';
import { PagedList } from '../../components/lists/paged-list.tsx';
import { ScreenHeader } from '../../components/screen-header.tsx';
import { SiteAccessTable } from '../../components/site-access/site-access-table.tsx';
import { AddSiteUser } from './add-site-user.tsx';
import { fetchAllSites } from './site-manager-api.ts';
import type { SiteManagerSearch } from './site-manager-search.ts';

const route = getRouteApi('/_shell/site-manager');

const SORT_OPTIONS = [
  { value: 'name', label: 'Name A–Z' },
  { value: 'locality', label: 'Town A–Z' },
  { value: '-id', label: 'Newest first' },
];

/** Site Manager (company staff): every site, with each site's roles and access at hand. */
export function SiteManagerScreen() {
  const { configApi } = useRuntime();
  const { user, page, site, missingSite } = route.useLoaderData();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const go = (next: SiteManagerSearch) => void navigate({ search: next });
  const columns: Column<Site>[] = [
    {
      key: 'name',
      header: 'Site',
      text: (s) => s.name,
      render: (s) => (
        <Anchor
          component="button"
          type="button"
          onClick={() => go({ ...search, site: s.id })}
          aria-label={`Manage access to ${s.name}`}
          aria-pressed={search.site === s.id}
        >
          {s.name}
        </Anchor>
      ),
    },
    { key: 'address', header: 'Address', text: (s) => s.displayAddress },
    { key: 'locality', header: 'Town', text: (s) => s.locality },
    { key: 'id', header: 'Site id', text: (s) => String(s.id), csvOnly: true },
  ];
  return (
    <Stack gap="md">
      <ScreenHeader
        title="Site Manager"
        description="Every site across all users. Pick a site to change who has access and with which roles."
      />
      {site ? (
        <Card withBorder component="section" aria-labelledby="managed-site">
          <Stack gap="sm">
            <div>
              <Title order={2} size="h4" id="managed-site">
                Access to {site.name}
              </Title>
              <Text size="sm" c="dimmed">
                {site.displayAddress} ·{' '}
                <AnchorLink
                  to="/site-details/$siteid"
                  params={{ siteid: String(site.id) }}
                  underline="always"
                >
                  Open site details
                </AnchorLink>
              </Text>
            </div>
            <SiteAccessTable site={site} canManage me={user} />
            <AddSiteUser key={site.id} siteId={site.id} adminId={user.id} />
          </Stack>
        </Card>
      ) : missingSite ? (
        <Text role="alert">No site {missingSite}</Text>
      ) : null}
      <PagedList
        label="All sites"
        columns={columns}
        rowKey={(s) => s.id}
        page={page}
        search={search}
        onSearch={go}
        searchLabel="Search all sites"
        searchHint="Name, address, owner or a device serial"
        sortOptions={SORT_OPTIONS}
        empty={{ title: search.q ? `No site matches “${search.q}”` : 'No sites yet' }}
        exportFile="all-sites.csv"
        fetchPage={(n, size) => fetchAllSites(configApi, user.id, { ...search, page: n }, size)}
      />
    </Stack>
  );
}
