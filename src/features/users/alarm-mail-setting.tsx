import { Alert, Stack, Switch } from '@mantine/core';
import { useRouter } from '@tanstack/react-router';
import { useState } from 'react';
import { errorMessage } from '../../../contracts/error-message.ts';
import type { User } from '../../../contracts/users.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { updateUser } from './users-api.ts';

/**
 * Alarm mail on or off for a user (`alarmMail`, off by default): each alarm at their sites is
 * mailed when raised, acknowledged and cleared. Saved at once; a refusal says why and the switch
 * shows what is stored.
 */
export function AlarmMailSetting({ user, self }: { user: User; self: boolean }) {
  const { configApi } = useRuntime();
  const router = useRouter();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const change = async (alarmMail: boolean) => {
    setSaving(true);
    setError(null);
    try {
      await updateUser(configApi, user.id, { alarmMail });
      await router.invalidate();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Stack gap="xs">
      <Switch
        label="Alarm mail"
        description={`${self ? 'E-mail me' : `E-mail ${user.name}`} when an alarm at ${self ? 'my' : 'their'} sites is raised, acknowledged or cleared.`}
        checked={user.alarmMail}
        disabled={saving}
        onChange={(event) => void change(event.currentTarget.checked)}
      />
      {error ? (
        <Alert color="red" role="alert" title="Alarm mail was not changed">
          {error}
        </Alert>
      ) : null}
    </Stack>
  );
}
