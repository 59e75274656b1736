import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconBluetooth, IconPlugConnectedX } from '@tabler/icons-react';
import { useSelector } from '@xstate/react';
import type { SnapshotFrom } from 'xstate';
import type {
  ConfigureSessionActor,
  SessionVia,
} from '../../../../machines/ble/configure-session-machine.ts';
import {
  type connectionMachine,
  MAX_RECONNECT_ATTEMPTS,
} from '../../../../machines/ble/connection-machine.ts';
import { TRANSPORT_MESSAGES } from '../../../ble/transport-error.ts';
import { PRIMARY, READABLE_ALERT } from './readable-styles.ts';
import { signalText } from './signal-text.ts';

type ConnectionSnapshot = SnapshotFrom<typeof connectionMachine>;

function stateText(s: ConnectionSnapshot, via: SessionVia | null): string {
  if (s.matches('choosing')) return 'Choose the device in the browser’s list…';
  if (s.matches('connecting')) return 'Connecting…';
  if (s.matches('discovering')) return 'Reading the device…';
  if (s.matches('ready'))
    return via === 'demo'
      ? 'Connected to the demo device'
      : `Connected to ${s.context.link?.name ?? 'the device'}`;
  if (s.matches('reconnecting'))
    return `Connection lost: reconnecting (attempt ${s.context.attempt} of ${MAX_RECONNECT_ATTEMPTS})…`;
  if (s.matches('failed')) return 'Not connected: the last attempt failed';
  return 'Not connected';
}

/** A device is connected, or being connected: only then is there something to disconnect. */
const linkInUse = (s: ConnectionSnapshot) =>
  s.matches('connecting') || s.matches('discovering') || s.matches('ready') || s.matches('reconnecting');

/**
 * Connect (the browser's chooser) or the demo device, with the demo device's password stated where
 * it is offered; the connection state and the signal strength. After a failed attempt there is
 * nothing to disconnect: the failure is dismissed, or tried again.
 */
export function ConnectionSection({ session }: { session: ConfigureSessionActor }) {
  const connection = useSelector(session, (s) => s.context.connection);
  const via = useSelector(session, (s) => s.context.via);
  const hasBluetooth = useSelector(session, (s) => s.context.transports.bluetooth !== null);
  const demoPassword = useSelector(session, (s) => s.context.demoPassword);
  const modelName = useSelector(session, (s) => s.context.product.entry.name);
  const text = useSelector(connection, (s) => stateText(s, via));
  const rssi = useSelector(connection, (s) => (s.matches('ready') ? s.context.rssi : undefined));
  const problem = useSelector(connection, (s) => s.context.problem);
  const failed = useSelector(connection, (s) => s.matches('failed'));
  // The buttons ask the session; its guard reads the connection, so they are asked again whenever
  // the connection's state changes.
  const canConnect = useSelector(connection, () =>
    session.getSnapshot().can({ type: 'session.connect', via: 'bluetooth' }),
  );
  const canUseDemo = useSelector(connection, () =>
    session.getSnapshot().can({ type: 'session.connect', via: 'demo' }),
  );
  const inUse = useSelector(connection, linkInUse);
  const canRetry = useSelector(connection, (s) => s.can({ type: 'ble.reconnect' }));
  return (
    <Stack gap="sm">
      {hasBluetooth ? null : (
        <Alert styles={READABLE_ALERT} color="yellow" title="Bluetooth is not available in this browser">
          {TRANSPORT_MESSAGES.unsupported}
        </Alert>
      )}
      <Group gap="sm">
        {hasBluetooth ? (
          <Button
            color={PRIMARY}
            leftSection={<IconBluetooth size={18} aria-hidden />}
            disabled={!canConnect}
            onClick={() => session.send({ type: 'session.connect', via: 'bluetooth' })}
          >
            Connect
          </Button>
        ) : null}
        <Button
          variant={hasBluetooth ? 'default' : 'filled'}
          color={hasBluetooth ? undefined : PRIMARY}
          disabled={!canUseDemo}
          onClick={() => session.send({ type: 'session.connect', via: 'demo' })}
          aria-describedby="demo-device-note"
        >
          Use demo device
        </Button>
        {canRetry ? (
          <Button variant="default" onClick={() => session.send({ type: 'session.reconnect' })}>
            Try again
          </Button>
        ) : null}
        {inUse ? (
          <Button
            variant="subtle"
            color="gray"
            leftSection={<IconPlugConnectedX size={18} aria-hidden />}
            onClick={() => session.send({ type: 'session.disconnect' })}
          >
            Disconnect
          </Button>
        ) : null}
      </Group>
      <Text size="sm" c="gray.7" id="demo-device-note">
        The demo device is a simulated {modelName} in this page
        {demoPassword ? (
          <>
            {' '}
            with the password <strong>{demoPassword}</strong>
          </>
        ) : null}
        . What you write to it stays in this browser and is recorded in no device’s history.
      </Text>
      <Group gap="lg">
        <Text role="status" aria-live="polite" data-testid="connection-state">
          {text}
        </Text>
        <Text c="gray.7" data-testid="signal-strength">
          Signal strength: {signalText(rssi)}
        </Text>
      </Group>
      {problem ? (
        <Alert
          styles={READABLE_ALERT}
          color="red"
          role="alert"
          title="Bluetooth problem"
          withCloseButton={failed}
          closeButtonLabel="Dismiss"
          onClose={() => session.send({ type: 'session.disconnect' })}
        >
          {problem.message}
        </Alert>
      ) : null}
    </Stack>
  );
}
