import { Alert, Button, Group, PasswordInput, Text } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import type { ConfigureSessionActor } from '../../../../machines/ble/configure-session-machine.ts';
import { PASSWORD_MAX_LENGTH } from '../../../../machines/ble/password-machine.ts';
import { PRIMARY, READABLE_ALERT } from './readable-styles.ts';

/** Asks for the device password before the form unlocks; says so when it is wrong. */
export function PasswordSection({ session }: { session: ConfigureSessionActor }) {
  const password = useSelector(session, (s) => s.context.password);
  const locked = useSelector(password, (s) => s.matches('locked') || s.matches('checking'));
  const checking = useSelector(password, (s) => s.matches('checking'));
  const unlocked = useSelector(password, (s) => s.matches('unlocked'));
  const message = useSelector(password, (s) => s.context.message);
  if (unlocked)
    return (
      <Text size="sm" c="teal.9" role="status">
        Unlocked: the settings can be changed.
      </Text>
    );
  if (!locked) return null;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = new FormData(event.currentTarget).get('device-password');
    session.send({ type: 'password.submit', password: typeof typed === 'string' ? typed : '' });
  };
  return (
    <form onSubmit={submit} aria-label="Unlock the device">
      <Group align="flex-end" gap="sm">
        <PasswordInput
          name="device-password"
          label="Device password"
          description={`Up to ${PASSWORD_MAX_LENGTH} characters, exactly as set on the device`}
          error={message ?? undefined}
          autoComplete="off"
          styles={{ description: { color: 'var(--mantine-color-gray-7)' } }}
          style={{ flex: '1 1 16rem' }}
        />
        <Button type="submit" color={PRIMARY} loading={checking}>
          Unlock
        </Button>
      </Group>
      {message ? null : (
        <Alert styles={READABLE_ALERT} mt="sm" color="blue" variant="light">
          The settings stay read-only until the device accepts its password.
        </Alert>
      )}
    </form>
  );
}
