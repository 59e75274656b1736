import { ActionIcon, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useSelector } from '@xstate/react';
import { useId } from 'react';
import type { RefreshOutcome } from '../../../machines/catalogue/catalogue-machine.ts';
import {
  catalogueError,
  fallbackFailed,
  isLoading,
  lastRefresh,
  listVersion,
  refreshAvailableAt,
} from '../../../machines/catalogue/catalogue-selectors.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { formatTime } from '../../components/format-date.ts';

function versionLabel(version: number, loading: boolean, noFallback: boolean): string {
  if (loading) return 'Devices list: loading…';
  if (noFallback) return 'Devices list: download and bundled copy failed';
  return version < 0 ? 'Devices list: bundled copy' : `Devices list v${version}`;
}

/** What the last refresh found, in words. */
function outcomeText(refresh: RefreshOutcome): string {
  if (refresh.outcome === 'unchanged') return `Devices list v${refresh.version} is up to date`;
  if (refresh.outcome === 'updated') return `Devices list updated to v${refresh.version}`;
  return 'The devices list could not be checked: the bundled copy is in use';
}

/**
 * The catalogue's version, "the devices-list version" in the specification's words (or that the
 * bundled copy is in use, or that it failed too) with the refresh button beside it. The button is
 * enabled exactly when the catalogue machine accepts a refresh (it refuses during the 20-second
 * cooldown). After a refresh it says what the refresh found, and while the button waits, from
 * when it can be used again (announced politely to screen readers).
 */
export function CatalogueStatus() {
  const { catalogue } = useRuntime();
  const version = useSelector(catalogue, listVersion);
  const loading = useSelector(catalogue, isLoading);
  const error = useSelector(catalogue, catalogueError);
  const noFallback = useSelector(catalogue, fallbackFailed);
  const canRefresh = useSelector(catalogue, (s) => s.can({ type: 'catalogue.refresh' }));
  const refresh = useSelector(catalogue, lastRefresh);
  const availableAt = useSelector(catalogue, refreshAvailableAt);
  const statusId = useId();
  return (
    <Stack gap={2}>
      <Group gap="xs" wrap="nowrap" justify="space-between">
        <Text size="sm" c="dimmed" data-testid="catalogue-version" title={error ?? undefined}>
          {versionLabel(version, loading, noFallback)}
        </Text>
        <Tooltip label="Check for a newer devices list" withArrow>
          <ActionIcon
            variant="subtle"
            aria-label="Refresh devices list"
            aria-describedby={refresh ? statusId : undefined}
            disabled={!canRefresh}
            onClick={() => catalogue.send({ type: 'catalogue.refresh' })}
          >
            <IconRefresh size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </Group>
      <Text size="xs" c="dimmed" id={statusId} role="status">
        {refresh ? outcomeText(refresh) : null}
        {refresh && availableAt !== null
          ? `. You can check again at ${formatTime(availableAt, { seconds: true })}.`
          : null}
      </Text>
    </Stack>
  );
}
