import { Card, Group, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Alarm, Overview } from '../../../contracts/monitoring.ts';
import { AlarmStateBadge, SeverityBadge } from '../../components/alarms/alarm-badges.tsx';
import { AlarmDevice, alarmTime } from '../../components/alarms/alarm-columns.tsx';
import { AnchorLink } from '../../components/anchor-link.tsx';
import { EmptyState } from '../../components/page-state.tsx';
import { SectionCard } from '../../components/section-card.tsx';
import { countText, FleetStatus } from './fleet-status.tsx';

/** kWh with one decimal under 100, whole above. */
export const kwhText = (kwh: number) =>
  `${kwh.toLocaleString(undefined, { maximumFractionDigits: kwh < 100 ? 1 : 0 })} kWh`;

type CountLink =
  | { to: '/devices-list'; search: { page: 0; state: 'online' | 'offline' | 'never' | 'alarm' } }
  | { to: '/alarms'; search: { page: 0; state: 'open' } }
  | { to: '/sites-list'; search: { page: 0 } };

/** One number of the overview, and the list it counts. */
function Count({
  label,
  value,
  link,
  linkText,
  detail,
}: {
  label: string;
  value: string;
  link: CountLink;
  linkText: string;
  detail?: ReactNode;
}) {
  return (
    <Card withBorder padding="md" component="section" aria-label={label}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={26} fw={700} lh={1.2}>
        {value}
      </Text>
      {detail ? <Text size="sm">{detail}</Text> : null}
      <AnchorLink to={link.to} search={link.search} size="sm">
        {linkText}
      </AnchorLink>
    </Card>
  );
}

function AlarmItem({ alarm }: { alarm: Alarm }) {
  return (
    <li>
      <Group gap="xs" wrap="wrap">
        <SeverityBadge severity={alarm.severity} />
        <AlarmStateBadge state={alarm.state} />
        <Text fw={600}>{alarm.message}</Text>
      </Group>
      <Text size="sm">
        {alarm.serial === null ? (
          'The whole site: '
        ) : (
          <>
            <AlarmDevice alarm={alarm} /> at{' '}
          </>
        )}
        <AnchorLink to="/site-details/$siteid" params={{ siteid: String(alarm.siteId) }}>
          {alarm.siteName}
        </AnchorLink>
        <Text span c="dimmed">
          {' '}
          · raised {alarmTime(alarm, alarm.raisedAt)}
        </Text>
      </Text>
    </li>
  );
}

/**
 * The fleet now: whether anything needs attention, then devices online, offline and in alarm, the
 * open alarms and today's energy, each linking to the list it counts (with the same number); the
 * newest open alarms; the sites with problems first.
 */
export function FleetOverview({ overview }: { overview: Overview }) {
  const { devices, alarms, sites } = overview;
  return (
    <Stack gap="lg">
      <FleetStatus overview={overview} />
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }}>
        <Count
          label="Devices online"
          value={devices.online.toLocaleString()}
          link={{ to: '/devices-list', search: { page: 0, state: 'online' } }}
          linkText="See online devices"
        />
        <Count
          label="Devices offline"
          value={devices.offline.toLocaleString()}
          link={{ to: '/devices-list', search: { page: 0, state: 'offline' } }}
          linkText="See offline devices"
          detail={
            devices.neverConnected ? (
              <AnchorLink to="/devices-list" search={{ page: 0, state: 'never' }}>
                {devices.neverConnected.toLocaleString()} never connected
              </AnchorLink>
            ) : null
          }
        />
        <Count
          label="Devices in alarm"
          value={devices.inAlarm.toLocaleString()}
          link={{ to: '/devices-list', search: { page: 0, state: 'alarm' } }}
          linkText="See devices in alarm"
        />
        <Count
          label="Open alarms"
          value={alarms.open.toLocaleString()}
          link={{ to: '/alarms', search: { page: 0, state: 'open' } }}
          linkText="See open alarms"
          detail={`${alarms.active.toLocaleString()} active, ${alarms.acknowledged.toLocaleString()} acknowledged`}
        />
        <Count
          label="Energy today"
          value={kwhText(overview.energyTodayKwh)}
          link={{ to: '/sites-list', search: { page: 0 } }}
          linkText={`Across your ${overview.sitesTotal} site${overview.sitesTotal === 1 ? '' : 's'}`}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <SectionCard title="Open alarms, newest first">
          {alarms.newest.length === 0 ? (
            <EmptyState title="No open alarms">
              {devices.offline
                ? `${countText(devices.offline, 'device')} offline, not yet for long enough to raise an alarm.`
                : devices.total
                  ? 'Every device at your sites is online.'
                  : 'Devices installed at your sites are watched here.'}
            </EmptyState>
          ) : (
            <Stack gap="sm">
              <Stack component="ul" gap="sm" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                {alarms.newest.map((alarm) => (
                  <AlarmItem key={alarm.id} alarm={alarm} />
                ))}
              </Stack>
              <AnchorLink to="/alarms" search={{ page: 0, state: 'open' }} size="sm">
                {alarms.open === 1 ? 'See the open alarm' : `See all ${countText(alarms.open, 'open alarm')}`}
              </AnchorLink>
            </Stack>
          )}
        </SectionCard>
        <SectionCard title="Sites, those with problems first">
          {sites.length === 0 ? (
            <EmptyState title="No sites yet">Sites you have access to appear here.</EmptyState>
          ) : (
            <Stack gap="sm">
              {/* No width of its own: on a phone a long name wraps rather than the table scrolling. */}
              <Table.ScrollContainer minWidth={0}>
                <Table aria-label="Sites by problems" striped>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Site</Table.Th>
                      <Table.Th ta="right">Offline</Table.Th>
                      <Table.Th ta="right">In alarm</Table.Th>
                      <Table.Th ta="right">Energy today</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {sites.map((site) => (
                      <Table.Tr key={site.id}>
                        <Table.Td>
                          <Group gap={6} wrap="wrap">
                            <AnchorLink to="/site-details/$siteid" params={{ siteid: String(site.id) }}>
                              {site.name}
                            </AnchorLink>
                            {site.worstSeverity ? <SeverityBadge severity={site.worstSeverity} /> : null}
                          </Group>
                          <Text size="xs" c="dimmed">
                            {site.online} of {site.devices} online
                          </Text>
                        </Table.Td>
                        <Table.Td ta="right">
                          {site.offline ? (
                            <AnchorLink
                              to="/devices-list"
                              search={{ page: 0, state: 'offline', siteId: site.id }}
                              aria-label={`${site.offline} devices offline at ${site.name}`}
                            >
                              {site.offline}
                            </AnchorLink>
                          ) : (
                            '0'
                          )}
                        </Table.Td>
                        <Table.Td ta="right">
                          {site.inAlarm ? (
                            <AnchorLink
                              to="/devices-list"
                              search={{ page: 0, state: 'alarm', siteId: site.id }}
                              aria-label={`${site.inAlarm} devices in alarm at ${site.name}`}
                            >
                              {site.inAlarm}
                            </AnchorLink>
                          ) : (
                            '0'
                          )}
                        </Table.Td>
                        <Table.Td ta="right">{kwhText(site.energyTodayKwh)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
              {overview.sitesTotal > sites.length ? (
                <AnchorLink to="/sites-list" search={{ page: 0 }} size="sm">
                  See all {overview.sitesTotal} sites
                </AnchorLink>
              ) : null}
            </Stack>
          )}
        </SectionCard>
      </SimpleGrid>
    </Stack>
  );
}
