import { Loader, Modal, NavLink, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconKey, IconUserCircle } from '@tabler/icons-react';
import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../../contracts/error-message.ts';
import type { User } from '../../../contracts/users.ts';
import { currentEmail } from '../../../machines/auth/auth-selectors.ts';
import { currentUserOf } from '../../app/current-user.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { fetchOwnProfile } from './account-api.ts';
import { ChangePasswordForm } from './change-password-form.tsx';
import { ProfileForm } from './profile-form.tsx';

/** The profile as the service has it, read when "Profile" opens. */
function ProfileLoader({ onDone }: { onDone: () => void }) {
  const { configApi, auth } = useRuntime();
  const me = useSelector(auth, currentUserOf, (a, b) => a?.id === b?.id);
  const [user, setUser] = useState<User | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    if (!me) return;
    fetchOwnProfile(configApi, me.id).then(setUser, (error: unknown) => setFailure(errorMessage(error)));
  }, [configApi, me]);
  if (failure) return <Text role="alert">Your profile could not be loaded: {failure}</Text>;
  if (!user) return <Loader size="sm" aria-label="Loading your profile" />;
  return <ProfileForm user={user} onDone={onDone} />;
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
        <ProfileLoader onDone={() => setOpen(null)} />
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
