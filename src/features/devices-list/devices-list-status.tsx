import { ActionIcon, Group, Text, Tooltip } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useSelector } from '@xstate/react';
import {
  devicesListError,
  fallbackFailed,
  isLoading,
  listVersion,
} from '../../../machines/devices-list/devices-list-selectors.ts';
import { useRuntime } from '../../app/runtime-context.tsx';

function versionLabel(version: number, loading: boolean, noFallback: boolean): string {
  if (loading) return 'Devices list: loading…';
  if (noFallback) return 'Devices list: download and bundled copy failed';
  return version < 0 ? 'Devices list: bundled copy' : `Devices list v${version}`;
}

/**
 * The devices-list version (or that the bundled copy is in use, or that it failed too) with the
 * refresh button beside it. The button is enabled exactly
 * when the devices-list machine accepts a refresh (it refuses during the 20-second cooldown).
 */
export function DevicesListStatus() {
  const { devicesList } = useRuntime();
  const version = useSelector(devicesList, listVersion);
  const loading = useSelector(devicesList, isLoading);
  const error = useSelector(devicesList, devicesListError);
  const noFallback = useSelector(devicesList, fallbackFailed);
  const canRefresh = useSelector(devicesList, (s) => s.can({ type: 'devicesList.refresh' }));
  return (
    <Group gap="xs" wrap="nowrap" justify="space-between">
      <Text size="sm" c="dimmed" data-testid="devices-list-version" title={error ?? undefined}>
        {versionLabel(version, loading, noFallback)}
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
