import { Center, Paper, Stack, Text, Title } from '@mantine/core';
import { Navigate, useRouteContext } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { isAuthenticated } from '../../../machines/auth/auth-selectors.ts';
import { STORAGE_KEYS } from '../../../machines/storage-keys.ts';
import { HOME_PATH, safeResumePath } from '../../app/resume-path.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { ResetPassword } from './reset-password.tsx';
import { SignInForm } from './sign-in-form.tsx';

/**
 * The sign-in screen. Once the auth machine reports both services signed in, it goes on to
 * the path the guard stored (a path on this site only) or to `/landing`. The e-mail of the last
 * sign-in is read from storage, where it stays after a session ends without a logout.
 */
export function LoginScreen() {
  const { auth } = useRuntime();
  const { storage } = useRouteContext({ from: '/login' });
  const signedIn = useSelector(auth, isAuthenticated);
  const [mode, setMode] = useState<'sign-in' | 'reset'>('sign-in');
  if (signedIn) {
    // `href` (the stored path with its search and hash) takes precedence over `to`.
    return (
      <Navigate to={HOME_PATH} href={safeResumePath(storage.getItem(STORAGE_KEYS.resumePath))} replace />
    );
  }
  return (
    <Center component="main" mih="100dvh" p="md" className="fm-login">
      <Paper withBorder shadow="md" radius="md" p="xl" w="100%" maw={400}>
        <Stack gap="lg">
          <Stack gap={2}>
            <Title order={1} size="h2">
              Fleet Manager
            </Title>
            <Text c="dimmed" size="sm">
              {mode === 'sign-in' ? 'Sign in to manage your sites and devices.' : 'Reset your password.'}
            </Text>
          </Stack>
          {mode === 'sign-in' ? (
            <SignInForm
              lastEmail={storage.getItem(STORAGE_KEYS.currentEmail) ?? ''}
              onForgotPassword={() => setMode('reset')}
            />
          ) : (
            <ResetPassword onBack={() => setMode('sign-in')} />
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
