import { Alert, List, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import type { Overview } from '../../../contracts/monitoring.ts';
import { AnchorLink } from '../../components/anchor-link.tsx';

/** `1 device`, `12 devices`, in the person's number format. */
export const countText = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** Links in the coloured alert take its text colour, underlined, so they read on every alert colour. */
const ON_ALERT = { c: 'inherit', underline: 'always', fw: 500 } as const;

/**
 * Home's first word on the fleet: all is well only when every device is online and no alarm is
 * open; otherwise what needs attention, how many, each linking to the list of them.
 */
export function FleetStatus({ overview }: { overview: Overview }) {
  const { devices, alarms } = overview;
  if (devices.total === 0 && alarms.open === 0)
    return (
      <Alert color="gray" title="No devices yet" role="status">
        Devices installed at your sites are watched here: whether they are online, and their alarms.
      </Alert>
    );
  const problems = [
    devices.offline > 0 && (
      <List.Item key="offline">
        <AnchorLink {...ON_ALERT} to="/devices-list" search={{ page: 0, state: 'offline' }}>
          {countText(devices.offline, 'device')} offline
        </AnchorLink>
        {devices.neverConnected > 0 ? (
          <>
            {', '}
            <AnchorLink {...ON_ALERT} to="/devices-list" search={{ page: 0, state: 'never' }}>
              {devices.neverConnected.toLocaleString()} of them never connected
            </AnchorLink>
          </>
        ) : null}
      </List.Item>
    ),
    devices.inAlarm > 0 && (
      <List.Item key="alarm">
        <AnchorLink {...ON_ALERT} to="/devices-list" search={{ page: 0, state: 'alarm' }}>
          {countText(devices.inAlarm, 'device')} in alarm
        </AnchorLink>
      </List.Item>
    ),
    alarms.open > 0 && (
      <List.Item key="alarms">
        <AnchorLink {...ON_ALERT} to="/alarms" search={{ page: 0, state: 'open' }}>
          {countText(alarms.open, 'open alarm')}
        </AnchorLink>
        {alarms.active > 0
          ? `, ${alarms.active.toLocaleString()} not acknowledged yet`
          : ', all acknowledged'}
      </List.Item>
    ),
  ].filter(Boolean);
  if (problems.length === 0)
    return (
      <Alert color="teal" title="All is well" role="status" icon={<IconCircleCheck aria-hidden />}>
        <Text size="sm">
          {devices.total === 1
            ? 'The device at your sites is online'
            : `All ${devices.total.toLocaleString()} devices at your sites are online`}{' '}
          and no alarm is open.
        </Text>
      </Alert>
    );
  // Sites come worst first: red while any alarm is critical.
  const serious = overview.sites.some((site) => site.worstSeverity === 'critical');
  return (
    <Alert
      color={serious ? 'red' : 'yellow'}
      title="Needs attention"
      role="status"
      icon={<IconAlertTriangle aria-hidden />}
    >
      <List size="sm" spacing={2}>
        {problems}
      </List>
    </Alert>
  );
}
