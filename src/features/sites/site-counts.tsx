import { Group, Text } from '@mantine/core';
import type { FleetCounts } from '../../../contracts/monitoring.ts';
import { AnchorLink } from '../../components/anchor-link.tsx';

/**
 * A site's devices and alarms by state in one line, each count linking to the list of them (which
 * holds as many: the counts and the lists are one query on the service).
 */
export function SiteCounts({ siteId, counts }: { siteId: number; counts: FleetCounts }) {
  const { devices, alarms } = counts;
  return (
    <Group gap="md" wrap="wrap" aria-label="Devices and alarms now" role="group">
      <Text size="sm">
        <AnchorLink to="/devices-list" search={{ page: 0, state: 'online', siteId }}>
          {devices.online} online
        </AnchorLink>
      </Text>
      <Text size="sm">
        <AnchorLink to="/devices-list" search={{ page: 0, state: 'offline', siteId }}>
          {devices.offline} offline
        </AnchorLink>
        {devices.neverConnected ? (
          <>
            {' ('}
            <AnchorLink to="/devices-list" search={{ page: 0, state: 'never', siteId }}>
              {devices.neverConnected} never connected
            </AnchorLink>
            )
          </>
        ) : null}
      </Text>
      <Text size="sm">
        <AnchorLink to="/devices-list" search={{ page: 0, state: 'alarm', siteId }}>
          {devices.inAlarm} in alarm
        </AnchorLink>
      </Text>
      <Text size="sm">
        <AnchorLink to="/alarms" search={{ page: 0, state: 'open', siteId }}>
          {alarms.open} open alarm{alarms.open === 1 ? '' : 's'}
        </AnchorLink>
      </Text>
    </Group>
  );
}
