import { Button, Group, Stack, Text } from '@mantine/core';
import type { CsvColumn } from '../../../contracts/csv.ts';
import type { Alarm } from '../../../contracts/monitoring.ts';
import { AnchorLink } from '../anchor-link.tsx';
import { formatSiteTime } from '../format-date.ts';
import type { Column } from '../lists/data-list.tsx';
import { AlarmStateBadge, SEVERITY_LABEL, SeverityBadge, STATE_LABEL } from './alarm-badges.tsx';

/**
 * A time of an alarm, on its site's clock (it happened there), with the site's zone named when the
 * browser's clock reads otherwise; empty for none.
 */
export const alarmTime = (alarm: Pick<Alarm, 'siteTimeZone'>, iso: string | null) =>
  iso ? formatSiteTime(iso, alarm.siteTimeZone) : '';

/** What the alarm is about, in words: the device's serial and name, or the whole site. */
export const subjectText = (alarm: Alarm) =>
  alarm.serial === null ? 'The whole site' : `${alarm.serial} ${alarm.deviceName ?? ''}`.trim();

/** The device an alarm is about, linked to its details; a site's own alarm says so instead. */
export function AlarmDevice({ alarm }: { alarm: Alarm }) {
  if (alarm.serial === null || alarm.modelId === null) return <Text size="sm">The whole site</Text>;
  return (
    <AnchorLink
      to="/device-details/$deviceid"
      params={{ deviceid: alarm.modelId }}
      search={{ serial: alarm.serial }}
    >
      {alarm.serial}
    </AnchorLink>
  );
}

const acknowledgedText = (alarm: Alarm) =>
  alarm.acknowledgedAt
    ? `${alarmTime(alarm, alarm.acknowledgedAt)}${alarm.acknowledgedBy ? ` by ${alarm.acknowledgedBy.name}` : ''}${
        alarm.note ? `: ${alarm.note}` : ''
      }`
    : '';

interface AlarmColumnOptions {
  /** Leave out the device and site (a device's own alarm history). */
  withoutDevice?: boolean;
  /** With it, an active alarm has an "Acknowledge" button that calls it. */
  onAcknowledge?: ((alarm: Alarm) => void) | undefined;
}

/**
 * Columns of a list of alarms (the alarms screen, a device's alarm history), its cards and its
 * CSV: when raised, how serious, its state, the device and site, what it is, and who
 * acknowledged it with which note.
 */
export function alarmColumns({ withoutDevice, onAcknowledge }: AlarmColumnOptions = {}): Column<Alarm>[] {
  const columns: Column<Alarm>[] = [
    { key: 'raised', header: 'Raised', text: (alarm) => alarmTime(alarm, alarm.raisedAt) },
    {
      key: 'alarm',
      header: 'Alarm',
      text: (alarm) => `${SEVERITY_LABEL[alarm.severity]}, ${STATE_LABEL[alarm.state]}: ${alarm.message}`,
      render: (alarm) => (
        <Stack gap={4} align="flex-start">
          <Group gap={6} wrap="wrap">
            <SeverityBadge severity={alarm.severity} />
            <AlarmStateBadge state={alarm.state} />
          </Group>
          <Text size="sm">{alarm.message}</Text>
        </Stack>
      ),
    },
  ];
  if (!withoutDevice)
    columns.push(
      {
        key: 'device',
        header: 'Device',
        text: subjectText,
        render: (alarm) => (
          <Stack gap={0}>
            <AlarmDevice alarm={alarm} />
            {alarm.deviceName ? (
              <Text size="xs" c="dimmed">
                {alarm.deviceName}
              </Text>
            ) : null}
          </Stack>
        ),
      },
      {
        key: 'site',
        header: 'Site',
        text: (alarm) => alarm.siteName,
        render: (alarm) => (
          <AnchorLink to="/site-details/$siteid" params={{ siteid: String(alarm.siteId) }}>
            {alarm.siteName}
          </AnchorLink>
        ),
      },
    );
  columns.push(
    { key: 'acknowledged', header: 'Acknowledged', text: acknowledgedText },
    { key: 'cleared', header: 'Cleared', text: (alarm) => alarmTime(alarm, alarm.clearedAt) || '—' },
  );
  if (onAcknowledge)
    columns.push({
      key: 'action',
      header: 'Action',
      text: () => '',
      render: (alarm) =>
        alarm.state === 'active' ? (
          <Button
            size="xs"
            variant="light"
            onClick={() => onAcknowledge(alarm)}
            aria-label={`Acknowledge ${alarm.message} on ${alarm.serial ?? alarm.siteName}`}
          >
            Acknowledge
          </Button>
        ) : (
          '—'
        ),
    });
  return columns;
}

/** The CSV of alarms: one fact a column, with the rule and the value that raised it. */
export function alarmCsvColumns(): CsvColumn<Alarm>[] {
  return [
    { header: 'Raised', text: (alarm) => alarm.raisedAt },
    { header: 'Severity', text: (alarm) => SEVERITY_LABEL[alarm.severity] },
    { header: 'State', text: (alarm) => STATE_LABEL[alarm.state] },
    { header: 'Serial', text: (alarm) => alarm.serial ?? '' },
    { header: 'Device name', text: (alarm) => alarm.deviceName ?? '' },
    { header: 'Site', text: (alarm) => alarm.siteName },
    { header: 'Alarm', text: (alarm) => alarm.message },
    { header: 'Rule', text: (alarm) => alarm.rule },
    { header: 'Value', text: (alarm) => (alarm.value === null ? '' : String(alarm.value)) },
    { header: 'Acknowledged', text: (alarm) => alarm.acknowledgedAt ?? '' },
    { header: 'Acknowledged by', text: (alarm) => alarm.acknowledgedBy?.name ?? '' },
    { header: 'Note', text: (alarm) => alarm.note ?? '' },
    { header: 'Cleared', text: (alarm) => alarm.clearedAt ?? '' },
  ];
}
