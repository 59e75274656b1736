import { Alert, Button, Group, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { User } from '../../../contracts/users.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { type Save, useSave } from '../../app/use-save.ts';
import { linkInstaller, sendAccessCode } from './users-api.ts';

/** A save's answer (the message given) or its failure, beside the button that sent it. */
function OutcomeAlert({ save }: { save: Save<string> }) {
  if (save.error) {
    return (
      <Alert color="red" role="alert" p="xs">
        {save.error}
      </Alert>
    );
  }
  if (!save.saved) return null;
  return (
    <Alert color="teal" role="status" p="xs">
      {save.saved.output}
    </Alert>
  );
}

/** E-mail the user an access code, with which they choose a password. */
export function SendAccessCode({ user }: { user: User }) {
  const { configApi } = useRuntime();
  // Nothing shown changes: the page is not loaded again.
  const save = useSave<string>({ refreshes: false });
  return (
    <Stack gap="xs">
      <Group>
        <Button
          variant="light"
          loading={save.pending}
          onClick={() => save.save((signal) => sendAccessCode(configApi, user.main_email, signal))}
        >
          Send access code
        </Button>
      </Group>
      <OutcomeAlert save={save} />
    </Stack>
  );
}

/** Link the user to an installer, who then sees them (`PUT /users/installer/add/{a}/{b}`). */
export function LinkInstaller({ user, installers }: { user: User; installers: User[] }) {
  const { configApi } = useRuntime();
  const [installerId, setInstallerId] = useState<string | null>(null);
  const save = useSave<string>();
  const choices = installers.filter((installer) => installer.id !== user.id);
  if (choices.length === 0) return <Text c="dimmed">No installer to link to.</Text>;
  const link = () => {
    if (!installerId) return;
    const name = choices.find((i) => String(i.id) === installerId)?.name ?? 'The installer';
    save.save(async (signal) => {
      await linkInstaller(configApi, user.id, Number(installerId), signal);
      return `${name} now sees ${user.name}.`;
    });
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
        <Button variant="light" disabled={!installerId} loading={save.pending} onClick={link}>
          Add installer
        </Button>
      </Group>
      <OutcomeAlert save={save} />
    </Stack>
  );
}
