import { NavLink } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconApi, IconBook, IconKey, IconWebhook } from '@tabler/icons-react';
import { Link, useRouterState } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { currentEmail } from '../../../machines/auth/auth-selectors.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { ChangePasswordForm } from './change-password-form.tsx';

/** The Account section's screens of their own, in the menu's order. */
const SCREENS = [
  { to: '/api-keys', label: 'API keys', Icon: IconApi },
  { to: '/webhooks', label: 'Webhooks', Icon: IconWebhook },
  { to: '/api', label: 'API reference', Icon: IconBook },
] as const;

/**
 * The Account section's own items: "API keys", "Webhooks" and "API reference" (screens of their own) and "Change password", in a
 * dialog over the screen the person is on. Passed to the shell by the `_shell` route. ("Profile" is one's own user page, a link of the
 * shell's menu.)
 */
export function AccountMenuItems({ onOpen }: { onOpen: () => void }) {
  const { auth } = useRuntime();
  const email = useSelector(auth, currentEmail) ?? '';
  const [open, setOpen] = useState(false);
  const path = useRouterState({ select: (state) => state.location.pathname });
  return (
    <>
      {SCREENS.map(({ to, label, Icon }) => (
        <NavLink
          key={to}
          component={Link}
          to={to}
          label={label}
          leftSection={<Icon size={18} aria-hidden />}
          active={path === to}
          aria-current={path === to ? 'page' : undefined}
          onClick={onOpen}
        />
      ))}
      <NavLink
        component="button"
        label="Change password"
        leftSection={<IconKey size={18} aria-hidden />}
        onClick={() => {
          onOpen();
          setOpen(true);
        }}
      />
      {open ? (
        <ChangePasswordForm
          email={email}
          onDone={(changed) => {
            setOpen(false);
            if (changed) {
              notifications.show({
                color: 'teal',
                title: 'Password changed',
                message: 'Your other phones and computers were signed out; this one stays signed in.',
              });
            }
          }}
        />
      ) : null}
    </>
  );
}
