import { Alert, Code, List, Text } from '@mantine/core';
import { ageText } from '../../components/devices/device-status-columns.tsx';
import { formatDateTime } from '../../components/format-date.ts';
import { READABLE_ALERT } from './configure/readable-styles.ts';

/**
 * A device claimed for its site that has not been heard from: since when, and what to check
 * (power, network, the service's address it was given), in the order an installer on site looks.
 */
export function SilentDevice({
  claimedAt,
  address,
  now,
}: {
  claimedAt: string;
  address: string;
  now: number;
}) {
  const since = ageText(Math.max(0, now - Date.parse(claimedAt)));
  return (
    <Alert
      styles={READABLE_ALERT}
      color="yellow"
      title={`Claimed ${since}; nothing heard from it yet`}
      role="status"
    >
      <Text size="sm">
        It was claimed for this site on {formatDateTime(claimedAt)} and has not connected since. It comes
        online by itself once it is powered, on a network, and holds this service's address. Check:
      </Text>
      <List size="sm" spacing={4} mt="xs">
        <List.Item>Power: it is switched on and its status light is lit.</List.Item>
        <List.Item>
          Network: where it is installed it reaches the internet (its Wi-Fi or cable; a firewall lets it out).
        </List.Item>
        <List.Item>
          Address: it was given <Code>{address}</Code>. Connect to it over Bluetooth from this page to give it
          again.
        </List.Item>
      </List>
    </Alert>
  );
}

/**
 * The address devices connect to, for a service whose base URL is `configUrl` (relative to the
 * page, or absolute): its device socket, over `wss:` where the page is served over HTTPS.
 * @example deviceAddress('/config', 'https://fleet.example/landing') // 'wss://fleet.example/config/service-comms/devices/ws'
 */
export function deviceAddress(configUrl: string, page: string): string {
  const url = new URL(`${configUrl.replace(/\/$/, '')}/service-comms/devices/ws`, page);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}
