import { ActionIcon, Group, Text, Tooltip } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useSelector } from '@xstate/react';
import { devicesListError, isLoading, listVersion } from '../../../machines/devices-list-selectors.ts';
import { useRuntime } from '../runtime-context.tsx';

function versionLabel(version: number, loading: boolean): string {
  if (loading) return 'Devices list: loading…';
  return version < 0 ? 'Devices list: bundled copy' : `Devices list v${version}`;
}

/**
 * The devices-list version with the refresh button beside it. The button is enabled exactly
 * when the devices-list machine accepts a refresh (it refuses during the 20-second cooldown).
 */
export function DevicesListStatus() {
  const { devicesList } = useRuntime();
  const version = useSelector(devicesList, listVersion);
  const loading = useSelector(devicesList, isLoading);
  const error = useSelector(devicesList, devicesListError);
  const canRefresh = useSelector(devicesList, (s) => s.can({ type: 'devicesList.refresh' }));
  return (
    <Group gap="xs" wrap="nowrap" justify="space-between">
      <Text size="sm" c="dimmed" data-testid="devices-list-version" title={error ?? undefined}>
        {versionLabel(version, loading)}
      </Text>
      <Tooltip label="Check for a newer devices list" withArrow>
        <ActionIcon
          variant="subtle"
          aria-label="Refresh devices list"
          disabled={!canRefresh}
          onClick={() => devicesList.send({ type: 'devicesList.refresh' })}
        >
          <IconRefresh size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
