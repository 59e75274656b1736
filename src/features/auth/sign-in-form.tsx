import { valibotResolver } from '@hookform/resolvers/valibot';
import { Alert, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { type UseFormRegisterReturn, useForm } from 'react-hook-form';
import { isSigningIn, loginError } from '../../../machines/auth/auth-selectors.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { AnchorLink } from '../../components/anchor-link.tsx';
import { fieldProps } from '../../components/field-props.ts';
import { ROUTE_FOCUS_ATTRIBUTE } from '../../components/route-focus.tsx';
import { type SignInValues, signInSchema } from './sign-in-schemas.ts';

/**
 * A field's props (`fieldProps`), keeping what a person typed into the prerendered field before the
 * app took the page over: registering a field writes its default value into it, so the text is
 * read first and given back to the form.
 */
function keepingTyped<R extends UseFormRegisterReturn>(registration: R, restore: (typed: string) => void) {
  return {
    ...registration,
    ref: (element: HTMLInputElement | null) => {
      const typed = element?.value ?? '';
      registration.ref(element);
      if (element && typed !== '' && element.value !== typed) restore(typed);
    },
  };
}

/**
 * E-mail (prefilled with the last sign-in, and focused) and password; the auth machine signs in
 * to both services and reports the server's message, or which service is down.
 */
export function SignInForm({
  lastEmail,
  onForgotPassword,
  onHaveCode,
}: {
  lastEmail: string;
  /** Called as "Forgot password?" opens its step (`?step=reset`). */
  onForgotPassword: () => void;
  /** "I have a code" (`?step=code`), a new account's first sign-in, with the e-mail typed so far. */
  onHaveCode: (email: string) => void;
}) {
  const { auth } = useRuntime();
  const busy = useSelector(auth, isSigningIn);
  const error = useSelector(auth, loginError);
  const form = useForm<SignInValues>({
    resolver: valibotResolver(signInSchema),
    defaultValues: { email: lastEmail, password: '' },
  });
  const { handleSubmit, getValues } = form;
  const submit = handleSubmit(({ email, password }) => auth.send({ type: 'auth.login', email, password }));
  return (
    // `method="dialog"`: outside a dialog the browser's own submission of this form does nothing,
    // so the prerendered form (src/prerender/) sends nowhere before the app runs, not even a GET
    // with the password in its URL. The app's handler takes every submission.
    <form onSubmit={submit} method="dialog" noValidate aria-label="Sign in">
      <Stack>
        {error && !busy ? (
          <Alert color="red" role="alert" title="Sign-in failed">
            {error}
          </Alert>
        ) : null}
        <TextInput
          label="E-mail"
          type="email"
          autoComplete="username"
          required
          // Also on coming back from the password reset, which is no route change.
          autoFocus
          {...{ [ROUTE_FOCUS_ATTRIBUTE]: '' }}
          {...keepingTyped(fieldProps(form, 'email'), (typed) => form.setValue('email', typed))}
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          required
          {...keepingTyped(fieldProps(form, 'password'), (typed) => form.setValue('password', typed))}
        />
        <Button type="submit" loading={busy} fullWidth>
          Sign in
        </Button>
        {/* Links, not buttons: each step has its URL. Pressed before the app has started, the
            page holds the press for the app (src/prerender/before-app.ts), so the step opens
            with the e-mail typed so far. */}
        <Group justify="space-between" gap="xs">
          <AnchorLink to="/login" search={{ step: 'reset' }} size="sm" onClick={onForgotPassword}>
            Forgot password?
          </AnchorLink>
          <AnchorLink
            to="/login"
            search={{ step: 'code' }}
            size="sm"
            onClick={() => onHaveCode(getValues('email').trim())}
          >
            I have a code
          </AnchorLink>
        </Group>
      </Stack>
    </form>
  );
}
