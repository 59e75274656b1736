import { Anchor, Center, Divider, Paper, Stack, Text, Title } from '@mantine/core';
import { getRouteApi, Link, Navigate, useRouteContext } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { isAuthenticated } from '../../../machines/auth/auth-selectors.ts';
import { STORAGE_KEYS } from '../../../machines/storage-keys.ts';
import { HOME_PATH, safeResumePath } from '../../app/resume-path.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { ResetPassword } from './reset-password.tsx';
import { SignInForm } from './sign-in-form.tsx';

const route = getRouteApi('/login');

/** The two tools that need no account, for someone at a device without one. */
function OpenTools() {
  return (
    <Stack gap={4}>
      <Divider />
      <Text size="sm" fw={600}>
        No account? These work without signing in:
      </Text>
      <Anchor component={Link} to="/device-details-old" size="sm">
        Configure a device over Bluetooth (serial and model)
      </Anchor>
      <Anchor component={Link} to="/sunspec-config" size="sm">
        SunSpec configurator
      </Anchor>
    </Stack>
  );
}

/**
 * The sign-in screen. Once the auth machine reports both services signed in, it goes on to
 * the path the guard stored (a path on this site only) or to `/landing`. The e-mail of the last
 * sign-in is read from storage, where it stays after a session ends without a logout.
 * `?step=reset` shows "Forgot password?", `?step=code` "Choose your password" (the URL keeps
 * the step, so a reload comes back to it).
 */
export function LoginScreen() {
  const { auth, passwordReset } = useRuntime();
  const { storage } = useRouteContext({ from: '/login' });
  const { step } = route.useSearch();
  const navigate = route.useNavigate();
  const signedIn = useSelector(auth, isAuthenticated);
  if (signedIn) {
    // `href` (the stored path with its search and hash) takes precedence over `to`.
    return (
      <Navigate to={HOME_PATH} href={safeResumePath(storage.getItem(STORAGE_KEYS.resumePath))} replace />
    );
  }
  const backToSignIn = () => {
    passwordReset.send({ type: 'reset.cancel' });
    void navigate({ search: {} });
  };
  return (
    <Center component="main" mih="100dvh" p="md" className="fm-login">
      <Paper withBorder shadow="md" radius="md" p="xl" w="100%" maw={400}>
        <Stack gap="lg">
          <Stack gap={2}>
            <Title order={1} size="h2">
              Fleet Manager
            </Title>
            <Text c="dimmed" size="sm">
              {step === undefined
                ? 'Sign in to manage your sites and devices.'
                : step === 'code'
                  ? 'Choose your password with the access code from your mail.'
                  : 'Reset your password.'}
            </Text>
          </Stack>
          {step === undefined ? (
            <SignInForm
              lastEmail={storage.getItem(STORAGE_KEYS.currentEmail) ?? ''}
              onForgotPassword={() => passwordReset.send({ type: 'reset.cancel' })}
              onHaveCode={(email) =>
                passwordReset.send({ type: 'reset.haveCode', ...(email ? { email } : {}) })
              }
            />
          ) : (
            <ResetPassword onBack={backToSignIn} />
          )}
          {step === undefined ? <OpenTools /> : null}
        </Stack>
      </Paper>
    </Center>
  );
}
