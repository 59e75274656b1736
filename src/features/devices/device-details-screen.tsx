import { Alert, SimpleGrid, Stack, Text } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import type { Device } from '../../../contracts/devices.ts';
import type { Alarm, LatestReading } from '../../../contracts/monitoring.ts';
import type { Page } from '../../../contracts/page.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { AcknowledgeDialog, useAlarmAcknowledge } from '../../components/alarms/acknowledge-dialog.tsx';
import { alarmColumns } from '../../components/alarms/alarm-columns.tsx';
import { AnchorLink } from '../../components/anchor-link.tsx';
import { AuditRecords } from '../../components/audit/audit-records.tsx';
import { deviceColumns } from '../../components/devices/device-columns.tsx';
import { FirmwareUnknown } from '../../components/devices/firmware-version.tsx';
import { useModelName } from '../../components/devices/model-names.ts';
import { OnlineBadge } from '../../components/devices/online-badge.tsx';
import { DeviceOnlineBadge } from '../../components/devices/online-devices.tsx';
import { FleetLiveStatus, useFleetLive } from '../../components/fleet-live.tsx';
import { formatDateTime } from '../../components/format-date.ts';
import { DataList } from '../../components/lists/data-list.tsx';
import { EmptyState, PageLoading } from '../../components/page-state.tsx';
import { ScreenHeader } from '../../components/screen-header.tsx';
import { Fact, SectionCard } from '../../components/section-card.tsx';
import { DeviceConfiguration } from './configure/device-configuration.tsx';
import { deviceChartsLoader } from './device-charts.ts';
import { DeviceInstallActions } from './device-install-actions.tsx';
import { FirmwareUpdateSection } from './firmware/firmware-update-section.tsx';
import { LiveTiles } from './live-tiles.tsx';
import { deviceAddress } from './silent-device.tsx';

// uPlot comes with the charts only: the sign-in screen and the screens without charts never load it.
const ChartsPanel = lazy(() => import('../../components/charts/charts-panel.tsx'));

/** The device's telemetry: live tiles, then its charts over a range. */
function Monitoring({ device, latest }: { device: Device; latest: LatestReading | null }) {
  const { monitoringApi, config } = useRuntime();
  const serial = device.serial;
  // Whether the device was claimed and never heard from when the page showed it. Its first reading
  // runs the page's loaders again (the fleet changed), and the page goes on saying it came online.
  const [silentWhenShown] = useState(() => Boolean(device.claimedAt) && latest?.receivedAt === null);
  if (!latest)
    return (
      <SectionCard title="Live values">
        <Alert color="yellow" role="alert">
          The monitoring service did not answer for this device: live values and charts are not available now.
        </Alert>
      </SectionCard>
    );
  return (
    <>
      <SectionCard title="Live values">
        <LiveTiles
          serial={serial}
          units={latest.units}
          roles={latest.roles}
          // A claimed device never heard from says what to check, until its first reading.
          {...(device.claimedAt && silentWhenShown
            ? {
                silent: {
                  claimedAt: device.claimedAt,
                  address: deviceAddress(config.configUrl, window.location.href),
                },
              }
            : {})}
        />
      </SectionCard>
      <SectionCard title="History">
        <Suspense fallback={<PageLoading label="Loading the charts…" />}>
          <ChartsPanel
            label={`History of ${serial}`}
            loadCharts={deviceChartsLoader(monitoringApi, serial, latest.units, latest.roles)}
            timeZone={latest.timeZone}
          />
        </Suspense>
      </SectionCard>
    </>
  );
}

/** The device's alarms, newest first, each active one acknowledged from here. */
function AlarmHistory({ alarms }: { alarms: { page: Page<Alarm> | null; error: string | null } }) {
  const acknowledge = useAlarmAcknowledge();
  const columns = alarmColumns({
    withoutDevice: true,
    onAcknowledge: (alarm) => acknowledge.send({ type: 'ack.open', alarmId: alarm.id }),
  });
  const page = alarms.page;
  return (
    <SectionCard title="Alarms">
      {!page ? (
        <Alert color="red" role="alert" title="The alarms could not be loaded">
          {alarms.error}
        </Alert>
      ) : page.items.length === 0 ? (
        <EmptyState title="No alarms">This device has never raised an alarm.</EmptyState>
      ) : (
        <Stack gap="xs">
          <DataList label="Alarms of this device" columns={columns} rows={page.items} rowKey={(a) => a.id} />
          {page.total > page.items.length ? (
            <Text size="sm" c="dimmed">
              The {page.items.length} newest of {page.total}.
            </Text>
          ) : null}
          <AcknowledgeDialog actor={acknowledge} alarms={page.items} />
        </Stack>
      )}
    </SectionCard>
  );
}

const route = getRouteApi('/_shell/device-details/$deviceid');

function OneDevice({
  device,
  modelName,
  userId,
  mayInstall,
  latest,
  alarms,
}: {
  device: Device;
  modelName: string;
  userId: number;
  mayInstall: boolean;
  latest: LatestReading | null;
  alarms: { page: Page<Alarm> | null; error: string | null } | null;
}) {
  // Its alarms and Online badge follow what happens at its site.
  const live = useFleetLive(device.siteId);
  return (
    <Stack gap="lg">
      <ScreenHeader
        title={device.serial}
        badge={latest ? <OnlineBadge online={latest.online} /> : <DeviceOnlineBadge serial={device.serial} />}
        description={modelName}
      />
      <FleetLiveStatus actor={live} />
      <SectionCard title="Device">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
          <Fact label="Model">{`${modelName} (${device.modelId})`}</Fact>
          <Fact label="Serial">{device.serial}</Fact>
          <Fact label="Name">{device.name}</Fact>
          <Fact label="Site">
            <AnchorLink to="/site-details/$siteid" params={{ siteid: String(device.siteId) }}>
              {device.siteName}
            </AnchorLink>
          </Fact>
          <Fact label="Installed">{formatDateTime(device.installedAt)}</Fact>
          <Fact label="Firmware">{device.firmwareVersion ?? <FirmwareUnknown long />}</Fact>
        </SimpleGrid>
        {mayInstall ? (
          <Stack mt="md" gap="xs">
            <DeviceInstallActions device={device} userId={userId} />
          </Stack>
        ) : null}
      </SectionCard>
      <Monitoring device={device} latest={latest} />
      {alarms ? <AlarmHistory alarms={alarms} /> : null}
      <FirmwareUpdateSection
        serial={device.serial}
        modelId={device.modelId}
        running={device.firmwareVersion}
      />
      <DeviceConfiguration serial={device.serial} modelId={device.modelId} />
      <AuditRecords
        of={{ serial: device.serial }}
        version={Date.parse(device.installedAt) + device.name.length}
      />
    </Stack>
  );
}

/** Device details: one device by model and serial, or every visible device of a model. */
export function DeviceDetailsScreen() {
  const { modelId, serial, page, userId, mayInstall, latest, alarms } = route.useLoaderData();
  const modelName = useModelName();
  const device = serial ? page.items[0] : undefined;
  if (device)
    return (
      <OneDevice
        device={device}
        modelName={modelName(device.modelId)}
        userId={userId}
        mayInstall={mayInstall}
        latest={latest}
        alarms={alarms}
      />
    );
  return (
    <Stack gap="md">
      <ScreenHeader
        title={modelName(modelId)}
        description={`${page.total} device${page.total === 1 ? '' : 's'} of model ${modelId} at your sites`}
      />
      {page.items.length === 0 ? (
        <EmptyState title={`No ${modelId} devices at your sites`} />
      ) : (
        <DataList
          label={`${modelId} devices`}
          columns={deviceColumns(modelName)}
          rows={page.items}
          rowKey={(d) => d.id}
        />
      )}
    </Stack>
  );
}
