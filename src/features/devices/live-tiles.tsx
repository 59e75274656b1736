import { Badge, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { liveStreamMachine } from '../../../machines/monitoring/live-stream-machine.ts';
import { createLiveStreamActor } from '../../api/live-stream.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { valueText } from '../../components/charts/chart-text.ts';
import { metricLabel } from '../../components/charts/metric-label.ts';
import { ageText } from '../../components/devices/device-status-columns.tsx';
import { formatDateTime } from '../../components/format-date.ts';
import { EmptyState } from '../../components/page-state.tsx';

/** The time now, once a second: for "last reading 12 s ago". */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

const UNIT_ORDER = ['W', '%', 'kWh', 'V', 'A', 'Hz', '°C'];
const order = (unit: string) => {
  const index = UNIT_ORDER.indexOf(unit);
  return index === -1 ? UNIT_ORDER.length : index;
};

/**
 * A device's live values as tiles, fed by the live stream machine: a badge and a line say whether
 * they are live (with the last reading's age) or stale (no reading within the limit, with when the
 * last came), or why the stream is down; stale tiles are greyed.
 */
export function LiveTiles({ serial, units }: { serial: string; units: Record<string, string> }) {
  const { config, session } = useRuntime();
  const actor = useActorRef(
    liveStreamMachine.provide({
      actors: { stream: createLiveStreamActor({ baseURL: config.monitoringUrl, session }) },
    }),
    { input: { serial } },
  );
  const latest = useSelector(actor, (s) => s.context.latest);
  const fresh = useSelector(actor, (s) => s.matches({ data: 'fresh' }));
  const stale = useSelector(actor, (s) => s.matches({ data: 'stale' }));
  const connecting = useSelector(actor, (s) => s.matches({ connection: { streaming: 'connecting' } }));
  const retrying = useSelector(actor, (s) => s.matches({ connection: 'retrying' }));
  const refused = useSelector(actor, (s) =>
    s.matches({ connection: 'refused' }) ? s.context.message : null,
  );
  const now = useNow();
  const age = latest ? ageText(Math.max(0, now - Date.parse(latest.receivedAt))) : '';
  const at = latest ? formatDateTime(latest.receivedAt) : '';
  const names = Object.keys(units)
    .filter((name) => latest?.values[name] !== undefined || !latest)
    .sort((a, b) => order(units[a] ?? '') - order(units[b] ?? '') || a.localeCompare(b));

  const status = refused
    ? refused
    : fresh
      ? `Last reading ${age} (${at}).`
      : stale && latest
        ? `No reading for ${age.replace(/ ago$/, '')}: the device may be offline. Last reading ${at}.`
        : stale
          ? 'This device has sent no reading.'
          : connecting && !latest
            ? 'Connecting to the live stream…'
            : 'Waiting for the first reading…';
  const badge = refused ? (
    <Badge color="gray.7">Not available</Badge>
  ) : fresh ? (
    <Badge color="teal.9">Live</Badge>
  ) : stale ? (
    <Badge color="red.9">Stale</Badge>
  ) : (
    <Badge color="gray.7">Connecting</Badge>
  );

  return (
    <Stack gap="sm">
      <Group gap="xs" wrap="wrap" role="status" aria-live="polite" data-testid="live-status">
        {badge}
        <Text size="sm">{status}</Text>
        {retrying && !refused ? (
          <Text size="sm" c="dimmed">
            The live stream dropped; reconnecting…
          </Text>
        ) : null}
      </Group>
      {names.length === 0 ? (
        <EmptyState title="No live values">This device's model reports no telemetry.</EmptyState>
      ) : (
        <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }} spacing="sm">
          {names.map((name) => {
            const value = latest?.values[name];
            const unit = units[name] ?? '';
            return (
              <Card
                key={name}
                withBorder
                padding="sm"
                component="section"
                aria-label={metricLabel(name)}
                data-stale={stale ? 'true' : undefined}
                bg={stale ? 'gray.1' : undefined}
              >
                <Text size="xs" c="dimmed">
                  {metricLabel(name)}
                </Text>
                <Text fz={22} fw={700} c={stale ? 'gray.7' : undefined} data-testid={`live-${name}`}>
                  {value === undefined ? '—' : valueText(value, unit)}
                </Text>
              </Card>
            );
          })}
        </SimpleGrid>
      )}
    </Stack>
  );
}
