import { Stack, Title } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { useRuntime } from '../../app/runtime-context.tsx';
import { DEVICE_SORT_OPTIONS, deviceColumns } from '../../components/devices/device-columns.tsx';
import { useModelName } from '../../components/devices/model-names.ts';
import { collectAllPages, downloadCsv, toCsv } from '../../components/lists/csv.ts';
import { DataList } from '../../components/lists/data-list.tsx';
import { type ListSearch, sortRows } from '../../components/lists/list-search.ts';
import { ListToolbar, Pager } from '../../components/lists/list-toolbar.tsx';
import { EmptyState } from '../../components/page-state.tsx';
import { fetchDevicesPage } from './devices-api.ts';
import { useOnlineDevices } from './online-devices.tsx';

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
  const textOf = (row: (typeof page.items)[number], key: string) =>
    columns.find((column) => column.key === key)?.text(row) ?? '';
  const exportCsv = async () => {
    const all = await collectAllPages((n, size) => fetchDevicesPage(configApi, user.id, n, search.q, size));
    downloadCsv('devices.csv', toCsv(all, columns));
  };
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        Devices
      </Title>
      <ListToolbar
        searchLabel="Search devices"
        searchHint="Serial, device name or site"
        search={search}
        sortOptions={DEVICE_SORT_OPTIONS}
        onChange={go}
        onExport={exportCsv}
      />
      {page.items.length === 0 ? (
        <EmptyState title={search.q ? `No device matches “${search.q}”` : 'No devices yet'}>
          {search.q ? 'Try another serial, name or site.' : 'Devices installed at your sites appear here.'}
        </EmptyState>
      ) : (
        <DataList
          label="Devices"
          columns={columns}
          rows={sortRows(page.items, search.sort, textOf)}
          rowKey={(device) => device.id}
        />
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
