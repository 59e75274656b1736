import { Badge, Card, Group, SimpleGrid, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { type ReactNode, useEffect, useState } from 'react';
import type { MonitoringRole } from '../../../contracts/monitoring-terms.ts';
import { liveStreamMachine } from '../../../machines/monitoring/live-stream-machine.ts';
import { createLiveStreamActor } from '../../api/live-stream.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { valueText } from '../../components/charts/chart-text.ts';
import { metricLabel } from '../../components/charts/metric-label.ts';
import { directionWord, ROLE_LOOK } from '../../components/charts/roles.ts';
import { ageText } from '../../components/devices/device-status-columns.tsx';
import { formatDateTime } from '../../components/format-date.ts';
import { EmptyState } from '../../components/page-state.tsx';
import { SilentDevice } from './silent-device.tsx';

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

/** The roles whose tile says which way the power flows. */
const DIRECTED: ReadonlySet<MonitoringRole> = new Set(['grid', 'battery']);

/** A tile's title: the role's name (as on every screen) with the item's own, or the item's name. */
function tileTitle(name: string, role: MonitoringRole | undefined): string {
  return role ? `${ROLE_LOOK[role].name} (${metricLabel(name)})` : metricLabel(name);
}

/**
 * A value in words: grid and battery power without its sign and with its direction ("1,250 W
 * exporting"), everything else as it is.
 */
/**
 * A tile's value; grid and battery add which way they flow ("319 W discharging"), in smaller type
 * on the same line, so that a phone's narrow tile wraps before the word instead of inside it.
 */
function tileValue(value: number, unit: string, role: MonitoringRole | undefined): ReactNode {
  if (!role || !DIRECTED.has(role)) return valueText(value, unit);
  return (
    <>
      {valueText(Math.abs(value), unit)}{' '}
      <Text span fz="md" fw={600}>
        {directionWord(role, value)}
      </Text>
    </>
  );
}

const DROPPED = 'The live stream dropped; reconnecting…';

/**
 * A device's live values as tiles, fed by the live stream machine: a badge and a line say whether
 * they are live (with the last reading's age) or stale (no reading within the limit, with when the
 * last came), or why the stream is down; stale tiles are greyed. An item that plays a role for the
 * site is named and coloured as the role is everywhere, and grid and battery say which way they flow.
 */
export function LiveTiles({
  serial,
  units,
  roles = {},
  silent,
}: {
  serial: string;
  units: Record<string, string>;
  roles?: Record<string, MonitoringRole>;
  /** For a claimed device never heard from: when it was claimed and the address it was given. */
  silent?: { claimedAt: string; address: string };
}) {
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
  // The reading's exact time rides along for machines; people read it to the minute.
  const at = latest ? <time dateTime={latest.receivedAt}>{formatDateTime(latest.receivedAt)}</time> : null;
  const names = Object.keys(units)
    .filter((name) => latest?.values[name] !== undefined || !latest)
    .sort((a, b) => order(units[a] ?? '') - order(units[b] ?? '') || a.localeCompare(b));

  const status = refused ? (
    refused
  ) : fresh && silent ? (
    <>
      Online: its first reading arrived. Last reading {age} ({at}).
    </>
  ) : fresh ? (
    <>
      Last reading {age} ({at}).
    </>
  ) : stale && latest ? (
    <>
      No reading for {age.replace(/ ago$/, '')}: the device may be offline. Last reading {at}.
    </>
  ) : stale ? (
    'This device has sent no reading.'
  ) : connecting && !latest ? (
    'Connecting to the live stream…'
  ) : (
    'Waiting for the first reading…'
  );
  const badge = refused ? (
    <Badge color="gray.7">Not available</Badge>
  ) : fresh ? (
    <Badge color="teal.9">Live</Badge>
  ) : stale ? (
    <Badge color="red.9">Stale</Badge>
  ) : (
    <Badge color="gray.7">Connecting</Badge>
  );

  // What a screen reader announces: the changes of state only. The line above it says how old the
  // last reading is and changes every second, which a live region would read out every second.
  const dropped = retrying && !refused;
  const announced = refused
    ? refused
    : dropped
      ? DROPPED
      : fresh
        ? 'Live: readings are arriving.'
        : stale && latest
          ? 'Stale: no recent reading; the device may be offline.'
          : stale
            ? 'This device has sent no reading.'
            : '';

  return (
    <Stack gap="sm">
      <Group gap="xs" wrap="wrap" data-testid="live-status">
        {badge}
        <Text size="sm">{status}</Text>
        {dropped ? (
          <Text size="sm" c="dimmed">
            {DROPPED}
          </Text>
        ) : null}
      </Group>
      <VisuallyHidden role="status" data-testid="live-announcement">
        {announced}
      </VisuallyHidden>
      {silent && !latest && !refused ? (
        <SilentDevice claimedAt={silent.claimedAt} address={silent.address} now={now} />
      ) : null}
      {names.length === 0 ? (
        <EmptyState title="No live values">This device's model reports no telemetry.</EmptyState>
      ) : (
        <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }} spacing="sm">
          {names.map((name) => {
            const value = latest?.values[name];
            const unit = units[name] ?? '';
            const role = roles[name];
            return (
              <Card
                key={name}
                withBorder
                padding="sm"
                component="section"
                aria-label={tileTitle(name, role)}
                data-stale={stale ? 'true' : undefined}
                bg={stale ? 'gray.1' : undefined}
                style={role ? { borderLeft: `4px solid ${ROLE_LOOK[role].colour}` } : undefined}
              >
                <Text size="xs" c="dimmed">
                  {tileTitle(name, role)}
                </Text>
                <Text fz={22} fw={700} c={stale ? 'gray.7' : undefined} data-testid={`live-${name}`}>
                  {value === undefined ? '—' : tileValue(value, unit, role)}
                </Text>
              </Card>
            );
          })}
        </SimpleGrid>
      )}
    </Stack>
  );
}
