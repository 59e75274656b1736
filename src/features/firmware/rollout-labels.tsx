import { Badge, Progress, Stack, Text } from '@mantine/core';
import type { RolloutCounts, RolloutDeviceState, RolloutState } from '../../../contracts/firmware.ts';

/** Each rollout state as a person reads it, with its colour. */
export const ROLLOUT_STATE: Record<RolloutState, { label: string; color: string }> = {
  running: { label: 'Running', color: 'blue' },
  paused: { label: 'Paused', color: 'yellow' },
  stopped: { label: 'Stopped: too many failures', color: 'red' },
  done: { label: 'Done', color: 'teal' },
  cancelled: { label: 'Cancelled', color: 'gray' },
};

/** Each device state of a rollout as a person reads it, with its colour. */
export const DEVICE_STATE: Record<RolloutDeviceState, { label: string; color: string }> = {
  queued: { label: 'Queued', color: 'gray' },
  uploading: { label: 'Uploading', color: 'blue' },
  testing: { label: 'Restarting to test', color: 'indigo' },
  confirmed: { label: 'Confirmed', color: 'teal' },
  reverted: { label: 'Reverted', color: 'orange' },
  failed: { label: 'Failed', color: 'red' },
  offline: { label: 'Offline', color: 'gray' },
};

export function RolloutStateBadge({ state }: { state: RolloutState }) {
  return (
    <Badge variant="light" color={ROLLOUT_STATE[state].color}>
      {ROLLOUT_STATE[state].label}
    </Badge>
  );
}

export function DeviceStateBadge({ state }: { state: RolloutDeviceState }) {
  return (
    <Badge variant="light" color={DEVICE_STATE[state].color}>
      {DEVICE_STATE[state].label}
    </Badge>
  );
}

/** "3 of 5 confirmed · 1 failed · 1 offline": the counts that are not zero. */
export function countsText(counts: RolloutCounts, devices: number): string {
  const parts = [`${counts.confirmed} of ${devices} confirmed`];
  for (const state of ['uploading', 'testing', 'reverted', 'failed', 'offline'] as const)
    if (counts[state] > 0) parts.push(`${counts[state]} ${DEVICE_STATE[state].label.toLowerCase()}`);
  return parts.join(' · ');
}

/** The share of devices finished (confirmed, or failed or reverted) as a bar, and the counts in words. */
export function RolloutProgress({ counts, devices }: { counts: RolloutCounts; devices: number }) {
  const share = (n: number) => (devices === 0 ? 0 : (n / devices) * 100);
  const text = countsText(counts, devices);
  return (
    <Stack gap={4} miw={160}>
      <Progress.Root size="md" aria-hidden>
        <Progress.Section value={share(counts.confirmed)} color="teal" />
        <Progress.Section value={share(counts.reverted + counts.failed)} color="red" />
        <Progress.Section value={share(counts.uploading + counts.testing)} color="blue" />
      </Progress.Root>
      <Text size="sm">{text}</Text>
    </Stack>
  );
}

/** Bytes as a person reads them: "48.2 KiB". */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** A number per loader answer: a screen keyed by it starts its machine again on a new answer. */
const loads = new WeakMap<object, number>();
let lastLoad = 0;
export function loadNumber(data: object): number {
  const known = loads.get(data);
  if (known !== undefined) return known;
  lastLoad += 1;
  loads.set(data, lastLoad);
  return lastLoad;
}
