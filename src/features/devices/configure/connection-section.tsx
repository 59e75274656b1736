import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconBluetooth, IconPlugConnectedX } from '@tabler/icons-react';
import { useSelector } from '@xstate/react';
import { MAX_RECONNECT_ATTEMPTS } from '../../../../machines/ble/connection-machine.ts';
import { TRANSPORT_MESSAGES } from '../../../ble/transport-error.ts';
import type { ConfigureSession } from './configure-session.ts';
import { PRIMARY, READABLE_ALERT } from './readable-styles.ts';
import { signalText } from './signal-text.ts';

type ConnectionSnapshot = ReturnType<ConfigureSession['connection']['getSnapshot']>;

function stateText(s: ConnectionSnapshot): string {
  if (s.matches('choosing')) return 'Choose the device in the browser’s list…';
  if (s.matches('connecting')) return 'Connecting…';
  if (s.matches('discovering')) return 'Reading the device…';
  if (s.matches('ready')) return `Connected to ${s.context.link?.name ?? 'the device'}`;
  if (s.matches('reconnecting'))
    return `Connection lost: reconnecting (attempt ${s.context.attempt} of ${MAX_RECONNECT_ATTEMPTS})…`;
  if (s.matches('failed')) return 'Not connected: the last attempt failed';
  return 'Not connected';
}

/** Connect (the browser's chooser) or the demo device, the connection state and the signal strength. */
export function ConnectionSection({ session }: { session: ConfigureSession }) {
  const { connection, webTransport, demoTransport } = session;
  const text = useSelector(connection, stateText);
  const rssi = useSelector(connection, (s) => (s.matches('ready') ? s.context.rssi : undefined));
  const problem = useSelector(connection, (s) => s.context.problem);
  const canConnect = useSelector(connection, (s) => s.can({ type: 'ble.connect', transport: demoTransport }));
  const canDisconnect = useSelector(
    connection,
    (s) => s.can({ type: 'ble.disconnect' }) && !s.matches('idle'),
  );
  const canRetry = useSelector(connection, (s) => s.can({ type: 'ble.reconnect' }));
  const hasWebBluetooth = browserHasBluetooth();
  return (
    <Stack gap="sm">
      {hasWebBluetooth ? null : (
        <Alert styles={READABLE_ALERT} color="yellow" title="Bluetooth is not available in this browser">
          {TRANSPORT_MESSAGES.unsupported}
        </Alert>
      )}
      <Group gap="sm">
        {hasWebBluetooth ? (
          <Button
            color={PRIMARY}
            leftSection={<IconBluetooth size={18} aria-hidden />}
            disabled={!canConnect}
            onClick={() => connection.send({ type: 'ble.connect', transport: webTransport })}
          >
            Connect
          </Button>
        ) : null}
        <Button
          variant={hasWebBluetooth ? 'default' : 'filled'}
          color={hasWebBluetooth ? undefined : PRIMARY}
          disabled={!canConnect}
          onClick={() => connection.send({ type: 'ble.connect', transport: demoTransport })}
        >
          Use demo device
        </Button>
        {canRetry ? (
          <Button variant="default" onClick={() => connection.send({ type: 'ble.reconnect' })}>
            Try again
          </Button>
        ) : null}
        {canDisconnect ? (
          <Button
            variant="subtle"
            color="gray"
            leftSection={<IconPlugConnectedX size={18} aria-hidden />}
            onClick={() => connection.send({ type: 'ble.disconnect' })}
          >
            Disconnect
          </Button>
        ) : null}
      </Group>
      <Group gap="lg">
        <Text role="status" aria-live="polite" data-testid="connection-state">
          {text}
        </Text>
        <Text c="gray.7" data-testid="signal-strength">
          Signal strength: {signalText(rssi)}
        </Text>
      </Group>
      {problem ? (
        <Alert styles={READABLE_ALERT} color="red" role="alert" title="Bluetooth problem">
          {problem.message}
        </Alert>
      ) : null}
    </Stack>
  );
}

function browserHasBluetooth(): boolean {
  return typeof navigator !== 'undefined' && 'bluetooth' in navigator;
}
