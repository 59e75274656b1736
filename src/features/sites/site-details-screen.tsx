import { Alert, Button, Group, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconEdit, IconMapPin, IconPlus } from '@tabler/icons-react';
import { getRouteApi, Link } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { type CsvColumn, toCsv } from '../../../contracts/csv.ts';
import type { Device } from '../../../contracts/devices.ts';
import type { DeviceStatus, FleetCounts } from '../../../contracts/monitoring.ts';
import type { Page } from '../../../contracts/page.ts';
import type { SiteDetails } from '../../../contracts/sites.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { AuditRecords } from '../../components/audit/audit-records.tsx';
import { deviceColumns } from '../../components/devices/device-columns.tsx';
import { deviceStatusColumns } from '../../components/devices/device-status-columns.tsx';
import { useModelName } from '../../components/devices/model-names.ts';
import { useOnlineDevices } from '../../components/devices/online-devices.tsx';
import { FleetLiveStatus, useFleetLive } from '../../components/fleet-live.tsx';
import { zoneName } from '../../components/format-date.ts';
import { collectAllPages, downloadCsv } from '../../components/lists/csv.ts';
import { type Column, DataList } from '../../components/lists/data-list.tsx';
import { ExportCsvButton } from '../../components/lists/export-csv-button.tsx';
import { EmptyState, PageLoading } from '../../components/page-state.tsx';
import { ScreenHeader } from '../../components/screen-header.tsx';
import { Fact, SectionCard } from '../../components/section-card.tsx';
import { SiteAccessTable } from '../../components/site-access/site-access-table.tsx';
import { AddCompanyMember } from './add-company-member.tsx';
import { AddDevice } from './add-device.tsx';
import { HandOverSite } from './hand-over-site.tsx';
import { ReportActions } from './report-actions.tsx';
import { siteChartsLoader } from './site-charts.ts';
import { SiteCounts } from './site-counts.tsx';
import { SiteEditForm } from './site-edit-form.tsx';
import { SiteNowPanel } from './site-now-panel.tsx';
import { positionText } from './site-payload.ts';
import { fetchInstalls } from './sites-api.ts';

const route = getRouteApi('/_shell/site-details/$siteid');

// uPlot comes with the charts only: the sign-in screen and the screens without charts never load it.
const ChartsPanel = lazy(() => import('../../components/charts/charts-panel.tsx'));

/** The site's power and energy per day over a range, and each device's state now. */
function SiteMonitoring({
  siteId,
  siteName,
  timeZone,
  statuses,
}: {
  siteId: number;
  siteName: string;
  timeZone: string;
  statuses: { page: Page<DeviceStatus> | null; counts: FleetCounts | null; error: string | null };
}) {
  const { monitoringApi } = useRuntime();
  const columns = deviceStatusColumns(useModelName(), { withoutSite: true });
  const page = statuses.page;
  return (
    <>
      {page && page.items.length === 0 ? null : (
        <SectionCard title="Devices now">
          {!page ? (
            <Alert color="red" role="alert" title="The devices' state could not be loaded">
              {statuses.error}
            </Alert>
          ) : (
            <Stack gap="sm">
              {statuses.counts ? <SiteCounts siteId={siteId} counts={statuses.counts} /> : null}
              <DataList
                label={`Devices now at ${siteName}`}
                columns={columns}
                rows={page.items}
                rowKey={(d) => d.serial}
              />
            </Stack>
          )}
        </SectionCard>
      )}
      {page && page.items.length > 0 ? (
        <SectionCard title="Power and energy">
          <Suspense fallback={<PageLoading label="Loading the charts…" />}>
            <ChartsPanel
              label={`Power and energy of ${siteName}`}
              loadCharts={siteChartsLoader(monitoringApi, siteId)}
              timeZone={timeZone}
            />
          </Suspense>
        </SectionCard>
      ) : null}
    </>
  );
}

/**
 * The site's devices: the devices list's columns (Online badges too), but for the site, which is
 * this page. A badge says what "Devices now" says (kept live), else what the poll of devices
 * online says.
 */
function useInstallColumns(statuses: Page<DeviceStatus> | null): Column<Device>[] {
  const polled = useOnlineDevices(useRuntime().configApi);
  const known = new Map(statuses?.items.map((device) => [device.serial, device.online]));
  const isOnline = (serial: string) => known.get(serial) ?? polled(serial);
  return deviceColumns(useModelName(), isOnline).filter((column) => column.key !== 'site');
}

type AccessRow = SiteDetails['access'][number];

/** Columns of the people-with-access CSV. */
const ACCESS_CSV: CsvColumn<AccessRow>[] = [
  { header: 'Name', text: (row) => row.name },
  { header: 'E-mail', text: (row) => row.main_email },
  { header: 'Site roles', text: (row) => row.roles.join(' ') },
  { header: 'Access', text: (row) => (row.access ? 'on' : 'off') },
];

/** Site details: the address and position, its devices, and who has access with which roles. */
export function SiteDetailsScreen() {
  const { user, site, installs, owners, statuses, may, company } = route.useLoaderData();
  const { configApi } = useRuntime();
  // Its devices' states, counts and badges follow what happens at the site.
  const live = useFleetLive(site.id);
  const [editing, { open, close }] = useDisclosure(false);
  const [adding, addDialog] = useDisclosure(false);
  const mayInstall = may.install;
  const columns = useInstallColumns(statuses.page);
  const owner = site.access.find((row) => row.userId === site.ownerId);
  const mayEdit = may.edit;
  const exportDevices = async () => {
    const all = await collectAllPages((page, size) => fetchInstalls(configApi, site.id, page, size));
    downloadCsv(`site-${site.id}-devices.csv`, toCsv(all, columns));
  };
  const exportPeople = async () => downloadCsv(`site-${site.id}-people.csv`, toCsv(site.access, ACCESS_CSV));
  return (
    <Stack gap="lg">
      <ScreenHeader
        title={site.name}
        description={site.displayAddress}
        actions={
          mayEdit ? (
            <>
              <Button variant="light" leftSection={<IconEdit size={16} aria-hidden />} onClick={open}>
                Edit site
              </Button>
              <Button
                renderRoot={(props) => (
                  <Link {...props} to="/edit-site-address/$siteid" params={{ siteid: String(site.id) }} />
                )}
                variant="light"
                leftSection={<IconMapPin size={16} aria-hidden />}
              >
                Edit address
              </Button>
            </>
          ) : null
        }
      />
      {installs.total > 0 ? <SiteNowPanel siteId={site.id} /> : null}
      <SectionCard title="Site">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
          <Fact label="Address">{site.displayAddress}</Fact>
          <Fact label="Position">{positionText(site)}</Fact>
          <Fact label="Town">{[site.postalCode, site.locality].filter(Boolean).join(' ') || '—'}</Fact>
          <Fact label="State and country">
            {[site.state, site.country].filter(Boolean).join(', ') || '—'}
          </Fact>
          <Fact label="Owner">
            {owner
              ? `${owner.name} (${owner.main_email})`
              : site.ownerId === null
                ? 'No owner'
                : 'An account you cannot see'}
          </Fact>
          <Fact label="Devices">{site.deviceCount}</Fact>
          <Fact label="Time zone">
            {site.timeZone} ({zoneName(site.timeZone)})
          </Fact>
        </SimpleGrid>
        <Group mt="md">
          <ReportActions
            siteId={site.id}
            siteName={site.name}
            canSend={mayInstall && site.ownerId !== null}
          />
          {may.handOver ? <HandOverSite siteId={site.id} siteName={site.name} /> : null}
        </Group>
      </SectionCard>
      <FleetLiveStatus actor={live} />
      <SiteMonitoring siteId={site.id} siteName={site.name} timeZone={site.timeZone} statuses={statuses} />
      <Stack component="section" aria-labelledby="site-devices" gap="sm">
        <Group justify="space-between" align="flex-end">
          <Title order={2} size="h4" id="site-devices">
            Devices installed
          </Title>
          <Group gap="xs">
            {mayInstall ? (
              <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={addDialog.open}>
                Add device
              </Button>
            ) : null}
            {installs.items.length > 0 ? (
              <ExportCsvButton onExport={exportDevices} label={`Export CSV of the devices at ${site.name}`} />
            ) : null}
          </Group>
        </Group>
        {installs.items.length === 0 ? (
          <EmptyState title="No devices installed here yet" />
        ) : (
          <DataList
            label={`Devices at ${site.name}`}
            columns={columns}
            rows={installs.items}
            rowKey={(d) => d.id}
          />
        )}
        {installs.total > installs.items.length ? (
          <Text size="sm" c="dimmed">
            Showing {installs.items.length} of {installs.total}; search the devices list for the rest.
          </Text>
        ) : null}
      </Stack>
      <Stack component="section" aria-labelledby="site-people" gap="sm">
        <Group justify="space-between" align="flex-end">
          <Title order={2} size="h4" id="site-people">
            People with access
          </Title>
          {site.access.length > 0 ? (
            <ExportCsvButton
              onExport={exportPeople}
              label={`Export CSV of the people with access to ${site.name}`}
            />
          ) : null}
        </Group>
        <SiteAccessTable site={site} canManage={may.manageAccess} me={user} />
        {company && company.members.length > 0 ? (
          <AddCompanyMember key={site.id} siteId={site.id} company={company.name} members={company.members} />
        ) : null}
      </Stack>
      <AuditRecords of={{ siteId: site.id }} version={installs.total} />
      <Modal
        opened={adding}
        onClose={addDialog.close}
        title="Add device"
        size="lg"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <AddDevice siteId={site.id} onClose={addDialog.close} />
      </Modal>
      {editing ? <SiteEditForm site={site} owners={owners} onDone={close} /> : null}
    </Stack>
  );
}
