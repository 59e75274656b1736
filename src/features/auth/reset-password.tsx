import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { useSelector } from '@xstate/react';
import {
  isResetBusy,
  resetEmail,
  resetError,
  resetStep,
} from '../../../machines/auth/password-reset-selectors.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { ResetRequestForm } from './reset-request-form.tsx';
import { ResetSubmitForm } from './reset-submit-form.tsx';

/** "Forgot password": request an access code, then set a new password with it. */
export function ResetPassword({ onBack }: { onBack: () => void }) {
  const { passwordReset } = useRuntime();
  const step = useSelector(passwordReset, resetStep);
  const error = useSelector(passwordReset, resetError);
  const busy = useSelector(passwordReset, isResetBusy);
  const email = useSelector(passwordReset, resetEmail) ?? '';
  const back = () => {
    passwordReset.send({ type: 'reset.cancel' });
    onBack();
  };
  return (
    <Stack>
      {error && !busy ? (
        <Alert color="red" role="alert" title="Password reset failed">
          {error}
        </Alert>
      ) : null}
      {step === 'email' ? (
        <ResetRequestForm
          defaultEmail={email}
          busy={busy}
          onSubmit={(value) => passwordReset.send({ type: 'reset.request', email: value })}
        />
      ) : null}
      {step === 'code' ? (
        <ResetSubmitForm
          defaultEmail={email}
          busy={busy}
          onSubmit={({ email: mail, code, newPassword }) =>
            passwordReset.send({ type: 'reset.submit', email: mail, code, newPassword })
          }
        />
      ) : null}
      {step === 'done' ? (
        <Stack>
          <Text role="status">Your password has been changed. Sign in with the new password.</Text>
          <Button onClick={back}>Back to sign in</Button>
        </Stack>
      ) : (
        <Anchor component="button" type="button" size="sm" onClick={back}>
          Back to sign in
        </Anchor>
      )}
    </Stack>
  );
}
