import { Stack } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { useRuntime } from '../../app/runtime-context.tsx';
import { DEVICE_SORT_OPTIONS, deviceColumns } from '../../components/devices/device-columns.tsx';
import { useModelName } from '../../components/devices/model-names.ts';
import { useOnlineDevices } from '../../components/devices/online-devices.tsx';
import type { ListSearch } from '../../components/lists/list-search.ts';
import { PagedList } from '../../components/lists/paged-list.tsx';
import { ScreenHeader } from '../../components/screen-header.tsx';
import { fetchDevicesPage } from './devices-api.ts';

const route = getRouteApi('/_shell/devices-list');

/** Devices: every device at the sites the person sees, searchable by serial, name or site. */
export function DevicesListScreen() {
  const { configApi } = useRuntime();
  const { user, page } = route.useLoaderData();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const isOnline = useOnlineDevices(configApi);
  const columns = deviceColumns(useModelName(), isOnline);
  const go = (next: ListSearch) => void navigate({ search: next });
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
