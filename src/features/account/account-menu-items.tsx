import { Loader, Modal, NavLink } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconKey, IconUserCircle } from '@tabler/icons-react';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { currentEmail } from '../../../machines/auth/auth-selectors.ts';
import type { ApiClient } from '../../api/api-client.ts';
import { currentUserOf, sameUser } from '../../app/current-user.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { fromTask, useTask } from '../../app/use-task.ts';
import { LoadFailed } from '../../components/page-state.tsx';
import { fetchOwnProfile } from './account-api.ts';
import { ChangePasswordForm } from './change-password-form.tsx';
import { ProfileForm } from './profile-form.tsx';

/** Reads one's own record; the read is dropped (aborted) when the dialog closes first. */
const loadProfile = fromTask(
  ({ input, signal }: { input: { api: ApiClient; id: number }; signal: AbortSignal }) =>
    fetchOwnProfile(input.api, input.id, signal),
);

/** The profile as the service has it, read when "Profile" opens. */
function ProfileLoader({ id, onDone }: { id: number; onDone: () => void }) {
  const { configApi } = useRuntime();
  const state = useTask(loadProfile, { api: configApi, id });
  if (state.status === 'error')
    return <LoadFailed title="Your profile could not be loaded" error={state.error} onRetry={state.retry} />;
  if (state.status !== 'done') return <Loader size="sm" aria-label="Loading your profile" />;
  return <ProfileForm user={state.output} onDone={onDone} />;
}

/** The dialog's content: a new read each time it opens, and after "Try again". */
function Profile({ onDone }: { onDone: () => void }) {
  const { auth, config } = useRuntime();
  const me = useSelector(auth, (s) => currentUserOf(s, config.companyDomain), sameUser);
  if (!me) return null;
  return <ProfileLoader key={me.id} id={me.id} onDone={onDone} />;
}

/**
 * The Account section's own items: "Profile" (name and phone) and "Change password", each in a
 * dialog over the screen the person is on. Passed to the shell by the `_shell` route.
 */
export function AccountMenuItems({ onOpen }: { onOpen: () => void }) {
  const { auth } = useRuntime();
  const email = useSelector(auth, currentEmail) ?? '';
  const [open, setOpen] = useState<'profile' | 'password' | null>(null);
  const show = (which: 'profile' | 'password') => {
    onOpen();
    setOpen(which);
  };
  return (
    <>
      <NavLink
        component="button"
        label="Profile"
        leftSection={<IconUserCircle size={18} aria-hidden />}
        onClick={() => show('profile')}
      />
      <NavLink
        component="button"
        label="Change password"
        leftSection={<IconKey size={18} aria-hidden />}
        onClick={() => show('password')}
      />
      <Modal opened={open === 'profile'} onClose={() => setOpen(null)} title="Profile">
        <Profile onDone={() => setOpen(null)} />
      </Modal>
      <Modal opened={open === 'password'} onClose={() => setOpen(null)} title="Change password">
        <ChangePasswordForm
          email={email}
          onDone={(changed) => {
            setOpen(null);
            if (changed) {
              notifications.show({
                color: 'teal',
                title: 'Password changed',
                message: 'Your other phones and computers were signed out; this one stays signed in.',
              });
            }
          }}
        />
      </Modal>
    </>
  );
}
