import { Alert, Stack, Switch } from '@mantine/core';
import type { User } from '../../../contracts/users.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { useSave } from '../../app/use-save.ts';
import { updateUser } from './users-api.ts';

/**
 * Alarm mail on or off for a user (`alarmMail`, off by default): each alarm at their sites is
 * mailed when raised, acknowledged and cleared. Saved at once; a refusal says why and the switch
 * shows what is stored.
 */
export function AlarmMailSetting({ user, self }: { user: User; self: boolean }) {
  const { configApi } = useRuntime();
  const save = useSave();
  const change = (alarmMail: boolean) =>
    save.save((signal) => updateUser(configApi, user.id, { alarmMail }, signal));
  return (
    <Stack gap="xs">
      <Switch
        label="Alarm mail"
        description={`${self ? 'E-mail me' : `E-mail ${user.name}`} when an alarm at ${self ? 'my' : 'their'} sites is raised, acknowledged or cleared.`}
        checked={user.alarmMail}
        disabled={save.pending}
        onChange={(event) => change(event.currentTarget.checked)}
      />
      {save.error ? (
        <Alert color="red" role="alert" title="Alarm mail was not changed">
          {save.error}
        </Alert>
      ) : null}
    </Stack>
  );
}
