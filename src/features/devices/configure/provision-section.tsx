import { Alert, Button, Code, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { ConfigureSessionActor } from '../../../../machines/ble/configure-session-machine.ts';
import type { provisionMachine } from '../../../../machines/ble/provision-machine.ts';
import { READABLE_ALERT } from './readable-styles.ts';

/**
 * Giving the connected device its network settings (commissioning): the service's address and a
 * secret of its own, written over Bluetooth; the device then connects by itself. The secret is
 * never shown.
 */
export function ProvisionSection({
  session,
  provision,
}: {
  session: ConfigureSessionActor;
  provision: ActorRefFrom<typeof provisionMachine>;
}) {
  const state = useSelector(provision, (s) => s);
  const takes = useSelector(session, (s) => s.can({ type: 'provision.start' }));
  const busy = state.matches('issuing') || state.matches('giving');
  const { serial, address, problem } = state.context;
  return (
    <section aria-labelledby="provision-title">
      <Title order={3} size="h4" id="provision-title" mb="xs">
        Network settings
      </Title>
      <Stack gap="xs">
        <Text size="sm">
          Give {serial} this service's address and a secret of its own over Bluetooth: it then connects to the
          service by itself. A secret it had before stops working.
        </Text>
        <div>
          <Button
            variant="default"
            loading={busy}
            disabled={!takes}
            onClick={() => session.send({ type: 'provision.start' })}
          >
            Give it its network settings
          </Button>
        </div>
        {state.matches('given') && address ? (
          <Alert
            styles={READABLE_ALERT}
            color="teal"
            role="status"
            withCloseButton
            onClose={() => session.send({ type: 'provision.dismiss' })}
          >
            {serial} has its network settings: it connects to <Code>{address}</Code> by itself, and its page
            shows its first reading.
          </Alert>
        ) : null}
        {state.matches('failed') ? (
          <Alert
            styles={READABLE_ALERT}
            color="red"
            role="alert"
            title="The network settings were not given"
            withCloseButton
            onClose={() => session.send({ type: 'provision.dismiss' })}
          >
            {problem?.message}
          </Alert>
        ) : null}
      </Stack>
    </section>
  );
}
