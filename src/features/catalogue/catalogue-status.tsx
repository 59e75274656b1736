import { ActionIcon, Group, Text, Tooltip } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useSelector } from '@xstate/react';
import {
  catalogueError,
  fallbackFailed,
  isLoading,
  listVersion,
} from '../../../machines/catalogue/catalogue-selectors.ts';
import { useRuntime } from '../../app/runtime-context.tsx';

function versionLabel(version: number, loading: boolean, noFallback: boolean): string {
  if (loading) return 'Devices list: loading…';
  if (noFallback) return 'Devices list: download and bundled copy failed';
  return version < 0 ? 'Devices list: bundled copy' : `Devices list v${version}`;
}

/**
 * The catalogue's version, "the devices-list version" in the specification's words (or that the
 * bundled copy is in use, or that it failed too) with the refresh button beside it. The button is
 * enabled exactly when the catalogue machine accepts a refresh (it refuses during the 20-second cooldown).
 */
export function CatalogueStatus() {
  const { catalogue } = useRuntime();
  const version = useSelector(catalogue, listVersion);
  const loading = useSelector(catalogue, isLoading);
  const error = useSelector(catalogue, catalogueError);
  const noFallback = useSelector(catalogue, fallbackFailed);
  const canRefresh = useSelector(catalogue, (s) => s.can({ type: 'catalogue.refresh' }));
  return (
    <Group gap="xs" wrap="nowrap" justify="space-between">
      <Text size="sm" c="dimmed" data-testid="catalogue-version" title={error ?? undefined}>
        {versionLabel(version, loading, noFallback)}
      </Text>
      <Tooltip label="Check for a newer devices list" withArrow>
        <ActionIcon
          variant="subtle"
          aria-label="Refresh devices list"
          disabled={!canRefresh}
          onClick={() => catalogue.send({ type: 'catalogue.refresh' })}
        >
          <IconRefresh size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
