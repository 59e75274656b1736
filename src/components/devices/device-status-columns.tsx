import { Text } from '@mantine/core';
import type { DeviceStatus } from '../../../contracts/monitoring.ts';
import { SeverityBadge } from '../alarms/alarm-badges.tsx';
import { AnchorLink } from '../anchor-link.tsx';
import { formatDateTime } from '../format-date.ts';
import type { Column } from '../lists/data-list.tsx';
import { OnlineBadge } from './online-badge.tsx';

/** How long ago, in words: "just now", "5 min ago", "3 h ago", "2 days ago". */
export function ageText(ms: number): string {
  if (ms < 60_000) return ms < 15_000 ? 'just now' : `${Math.round(ms / 1000)} s ago`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min ago`;
  if (ms < 2 * 86_400_000) return `${Math.round(ms / 3_600_000)} h ago`;
  return `${Math.round(ms / 86_400_000)} days ago`;
}

/** When a device last reported, as a time and an age; "Never" when it never did. */
export const lastSeenText = (lastSeen: string | null, now = Date.now()) =>
  lastSeen ? `${formatDateTime(lastSeen)} (${ageText(now - Date.parse(lastSeen))})` : 'Never';

/**
 * Columns of a list of devices with their state (devices online, offline or in alarm; a site's
 * devices): serial with its Online badge, model, name, site, last seen and open alarms.
 */
export function deviceStatusColumns(
  modelName: (modelId: string) => string,
  { withoutSite = false } = {},
): Column<DeviceStatus>[] {
  const columns: Column<DeviceStatus>[] = [
    {
      key: 'serial',
      header: 'Serial',
      text: (device) => device.serial,
      render: (device) => (
        <>
          <AnchorLink
            to="/device-details/$deviceid"
            params={{ deviceid: device.modelId }}
            search={{ serial: device.serial }}
          >
            {device.serial}
          </AnchorLink>
          <OnlineBadge online={device.online} />
        </>
      ),
    },
    { key: 'model', header: 'Model', text: (device) => modelName(device.modelId) },
    { key: 'name', header: 'Name', text: (device) => device.name },
  ];
  if (!withoutSite)
    columns.push({
      key: 'site',
      header: 'Site',
      text: (device) => device.siteName,
      render: (device) => (
        <AnchorLink to="/site-details/$siteid" params={{ siteid: String(device.siteId) }}>
          {device.siteName}
        </AnchorLink>
      ),
    });
  columns.push(
    { key: 'state', header: 'State', text: (device) => (device.online ? 'Online' : 'Offline') },
    { key: 'lastSeen', header: 'Last seen', text: (device) => lastSeenText(device.lastSeen) },
    {
      key: 'alarms',
      header: 'Open alarms',
      text: (device) => String(device.openAlarms),
      render: (device) =>
        device.openAlarms && device.worstSeverity ? (
          <Text span>
            {device.openAlarms} <SeverityBadge severity={device.worstSeverity} />
          </Text>
        ) : (
          '0'
        ),
    },
  );
  return columns;
}
