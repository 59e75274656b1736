import { Group, Stack, Text } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import type { DeviceStatus } from '../../../contracts/monitoring.ts';
import type { Page } from '../../../contracts/page.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { AnchorLink } from '../../components/anchor-link.tsx';
import { DEVICE_SORT_OPTIONS, deviceColumns } from '../../components/devices/device-columns.tsx';
import { deviceStatusColumns } from '../../components/devices/device-status-columns.tsx';
import { useModelName } from '../../components/devices/model-names.ts';
import { useOnlineDevices } from '../../components/devices/online-devices.tsx';
import { DataList } from '../../components/lists/data-list.tsx';
import { Pager } from '../../components/lists/list-toolbar.tsx';
import { PagedList } from '../../components/lists/paged-list.tsx';
import { EmptyState } from '../../components/page-state.tsx';
import { ScreenHeader } from '../../components/screen-header.tsx';
import { fetchDevicesPage } from './devices-api.ts';
import type { DeviceStateFilter, InstalledDevicesSearch } from './installed-devices-search.ts';

const route = getRouteApi('/_shell/devices-list');

const STATE_TITLE: Record<DeviceStateFilter, string> = {
  online: 'Devices online',
  offline: 'Devices offline',
  never: 'Devices never connected',
  alarm: 'Devices in alarm',
};
const STATE_EMPTY: Record<DeviceStateFilter, string> = {
  online: 'No device is connected now',
  offline: 'Every device is online',
  never: 'Every device has been heard from',
  alarm: 'No device has an open alarm',
};

/** The devices in one state (what Home counts), from the monitoring service. */
function DevicesInState({
  state,
  statuses,
  search,
}: {
  state: DeviceStateFilter;
  statuses: Page<DeviceStatus>;
  search: InstalledDevicesSearch;
}) {
  const navigate = route.useNavigate();
  const columns = deviceStatusColumns(useModelName());
  const site = search.siteId ? statuses.items[0]?.siteName : undefined;
  return (
    <Stack gap="md">
      <ScreenHeader
        title={STATE_TITLE[state]}
        description={
          site ? `At ${site}` : search.siteId ? `At site ${search.siteId}` : 'At every site you see'
        }
      />
      <Group gap="md">
        <AnchorLink to="/devices-list" search={{ page: 0 }}>
          Show all devices
        </AnchorLink>
        {search.siteId ? (
          <AnchorLink to="/devices-list" search={{ page: 0, state }}>
            {`${STATE_TITLE[state]} at every site`}
          </AnchorLink>
        ) : null}
      </Group>
      {statuses.items.length === 0 ? (
        <EmptyState title={STATE_EMPTY[state]} />
      ) : (
        <DataList
          label={STATE_TITLE[state]}
          columns={columns}
          rows={statuses.items}
          rowKey={(d) => d.serial}
        />
      )}
      <Pager
        page={statuses.page}
        pageSize={statuses.pageSize}
        total={statuses.total}
        onPage={(n) => void navigate({ search: { ...search, page: n } })}
      />
      <Text size="xs" c="dimmed">
        Online: connected to the service now. Offline: not connected. Never connected: offline and never heard
        from since installed. In alarm: with an open alarm.
      </Text>
    </Stack>
  );
}

/** Devices: every device at the sites the person sees, searchable by serial, name or site. */
export function InstalledDevicesScreen() {
  const { configApi } = useRuntime();
  const { user, page, statuses } = route.useLoaderData();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const isOnline = useOnlineDevices(configApi);
  const columns = deviceColumns(useModelName(), isOnline);
  if (search.state && statuses)
    return <DevicesInState state={search.state} statuses={statuses} search={search} />;
  if (!page) return null;
  const go = (next: InstalledDevicesSearch) => void navigate({ search: next });
  return (
    <Stack gap="md">
      <ScreenHeader title="Devices" />
      <PagedList
        label="Devices"
        columns={columns}
        rowKey={(device) => device.id}
        page={page}
        search={search}
        onSearch={go}
        searchLabel="Search devices"
        searchHint="Serial, device name or site"
        sortOptions={DEVICE_SORT_OPTIONS}
        empty={
          search.q
            ? { title: `No device matches “${search.q}”`, hint: 'Try another serial, name or site.' }
            : { title: 'No devices yet', hint: 'Devices installed at your sites appear here.' }
        }
        exportFile="devices.csv"
        fetchPage={(n, size) => fetchDevicesPage(configApi, user.id, { ...search, page: n }, size)}
      />
    </Stack>
  );
}
