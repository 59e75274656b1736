import { SimpleGrid, Stack } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import type { Device } from '../../../contracts/devices.ts';
import { AnchorLink } from '../../components/anchor-link.tsx';
import { AuditRecords } from '../../components/audit/audit-records.tsx';
import { deviceColumns } from '../../components/devices/device-columns.tsx';
import { useModelName } from '../../components/devices/model-names.ts';
import { DeviceOnlineBadge } from '../../components/devices/online-devices.tsx';
import { formatDateTime } from '../../components/format-date.ts';
import { DataList } from '../../components/lists/data-list.tsx';
import { EmptyState } from '../../components/page-state.tsx';
import { ScreenHeader } from '../../components/screen-header.tsx';
import { Fact, SectionCard } from '../../components/section-card.tsx';
import { DeviceConfiguration } from './configure/device-configuration.tsx';
import { DeviceInstallActions } from './device-install-actions.tsx';

const route = getRouteApi('/_shell/device-details/$deviceid');

function OneDevice({
  device,
  modelName,
  userId,
  mayInstall,
}: {
  device: Device;
  modelName: string;
  userId: number;
  mayInstall: boolean;
}) {
  return (
    <Stack gap="lg">
      <ScreenHeader
        title={device.serial}
        badge={<DeviceOnlineBadge serial={device.serial} />}
        description={modelName}
      />
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
        </SimpleGrid>
        {mayInstall ? (
          <Stack mt="md" gap="xs">
            <DeviceInstallActions device={device} userId={userId} />
          </Stack>
        ) : null}
      </SectionCard>
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
  const { modelId, serial, page, userId, mayInstall } = route.useLoaderData();
  const modelName = useModelName();
  const device = serial ? page.items[0] : undefined;
  if (device)
    return (
      <OneDevice
        device={device}
        modelName={modelName(device.modelId)}
        userId={userId}
        mayInstall={mayInstall}
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
