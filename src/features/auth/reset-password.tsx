import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { useSelector } from '@xstate/react';
import {
  isResetBusy,
  resetCode,
  resetEmail,
  resetError,
  resetStep,
} from '../../../machines/auth/password-reset-selectors.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { ResetRequestForm } from './reset-request-form.tsx';
import { ResetSubmitForm } from './reset-submit-form.tsx';

/**
 * "Forgot password" and "I have a code": request an access code, then choose a password with
 * it (filled in from a mail's link), which also signs the person in.
 */
export function ResetPassword({ onBack }: { onBack: () => void }) {
  const { passwordReset } = useRuntime();
  const step = useSelector(passwordReset, resetStep);
  const error = useSelector(passwordReset, resetError);
  const busy = useSelector(passwordReset, isResetBusy);
  const email = useSelector(passwordReset, resetEmail) ?? '';
  const code = useSelector(passwordReset, resetCode) ?? '';
  const back = () => {
    passwordReset.send({ type: 'reset.cancel' });
    onBack();
  };
  return (
    <Stack>
      {error && !busy ? (
        <Alert
          color="red"
          role="alert"
          title={step === 'code' ? 'The password was not set' : 'No code was sent'}
        >
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
          // A link opened while the step was open brings new values: the form starts again with them.
          key={`${email}:${code}`}
          defaultEmail={email}
          defaultCode={code}
          busy={busy}
          onSubmit={({ email: mail, code, newPassword }) =>
            passwordReset.send({ type: 'reset.submit', email: mail, code, newPassword })
          }
        />
      ) : null}
      {step === 'done' ? (
        <Stack>
          <Text role="status">Your password has been chosen. Sign in with it.</Text>
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
