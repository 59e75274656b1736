import { Alert, Button, Group, Select, Stack, Text } from '@mantine/core';
import { useRouter } from '@tanstack/react-router';
import { useState } from 'react';
import { errorMessage } from '../../../contracts/error-message.ts';
import type { User } from '../../../contracts/users.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { linkInstaller, sendAccessCode } from './users-api.ts';

type Outcome = { ok: boolean; message: string } | null;

function OutcomeAlert({ outcome }: { outcome: Outcome }) {
  if (!outcome) return null;
  return (
    <Alert color={outcome.ok ? 'teal' : 'red'} role={outcome.ok ? 'status' : 'alert'} p="xs">
      {outcome.message}
    </Alert>
  );
}

/** E-mail the user an access code, with which they choose a password. */
export function SendAccessCode({ user }: { user: User }) {
  const { configApi } = useRuntime();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const send = async () => {
    setBusy(true);
    try {
      setOutcome({ ok: true, message: await sendAccessCode(configApi, user.main_email) });
    } catch (error) {
      setOutcome({ ok: false, message: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="xs">
      <Group>
        <Button variant="light" loading={busy} onClick={() => void send()}>
          Send access code
        </Button>
      </Group>
      <OutcomeAlert outcome={outcome} />
    </Stack>
  );
}

/** Link the user to an installer, who then sees them (`PUT /users/installer/add/{a}/{b}`). */
export function LinkInstaller({ user, installers }: { user: User; installers: User[] }) {
  const { configApi } = useRuntime();
  const router = useRouter();
  const [installerId, setInstallerId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const choices = installers.filter((installer) => installer.id !== user.id);
  if (choices.length === 0) return <Text c="dimmed">No installer to link to.</Text>;
  const link = async () => {
    if (!installerId) return;
    setBusy(true);
    try {
      await linkInstaller(configApi, user.id, Number(installerId));
      const name = choices.find((i) => String(i.id) === installerId)?.name ?? 'The installer';
      setOutcome({ ok: true, message: `${name} now sees ${user.name}.` });
      await router.invalidate();
    } catch (error) {
      setOutcome({ ok: false, message: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="xs">
      <Group align="flex-end" gap="xs">
        <Select
          label="Installer"
          placeholder="Choose an installer"
          searchable
          data={choices.map((i) => ({ value: String(i.id), label: `${i.name} (${i.main_email})` }))}
          value={installerId}
          onChange={setInstallerId}
          w={320}
        />
        <Button variant="light" disabled={!installerId} loading={busy} onClick={() => void link()}>
          Add installer
        </Button>
      </Group>
      <OutcomeAlert outcome={outcome} />
    </Stack>
  );
}
