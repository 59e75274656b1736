import { Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import type { Device } from '../../../contracts/devices.ts';
import { AnchorLink } from '../../components/anchor-link.tsx';
import { deviceColumns } from '../../components/devices/device-columns.tsx';
import { useModelName } from '../../components/devices/model-names.ts';
import { DataList } from '../../components/lists/data-list.tsx';
import { EmptyState } from '../../components/page-state.tsx';
import { DeviceConfiguration } from './configure/device-configuration.tsx';
import { DeviceOnlineBadge } from './online-devices.tsx';

const route = getRouteApi('/_shell/device-details/$deviceid');

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text>{children}</Text>
    </div>
  );
}

function OneDevice({ device, modelName }: { device: Device; modelName: string }) {
  return (
    <Stack gap="lg">
      <div>
        <Group gap={0} align="center">
          <Title order={1} size="h2">
            {device.serial}
          </Title>
          <DeviceOnlineBadge serial={device.serial} />
        </Group>
        <Text c="dimmed">{modelName}</Text>
      </div>
      <Card withBorder component="section" aria-labelledby="device-facts">
        <Title order={2} size="h4" id="device-facts" mb="sm">
          Device
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
          <Fact label="Model">{`${modelName} (${device.modelId})`}</Fact>
          <Fact label="Serial">{device.serial}</Fact>
          <Fact label="Name">{device.name}</Fact>
          <Fact label="Site">
            <AnchorLink to="/site-details/$siteid" params={{ siteid: String(device.siteId) }}>
              {device.siteName}
            </AnchorLink>
          </Fact>
          <Fact label="Installed">{new Date(device.installedAt).toLocaleString()}</Fact>
        </SimpleGrid>
      </Card>
      <DeviceConfiguration serial={device.serial} modelId={device.modelId} />
    </Stack>
  );
}

/** Device details: one device by model and serial, or every visible device of a model. */
export function DeviceDetailsScreen() {
  const { modelId, serial, page } = route.useLoaderData();
  const modelName = useModelName();
  const device = serial ? page.items[0] : undefined;
  if (device) return <OneDevice device={device} modelName={modelName(device.modelId)} />;
  return (
    <Stack gap="md">
      <div>
        <Title order={1} size="h2">
          {modelName(modelId)}
        </Title>
        <Text c="dimmed">
          {page.total} device{page.total === 1 ? '' : 's'} of model {modelId} at your sites
        </Text>
      </div>
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
