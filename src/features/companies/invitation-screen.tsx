import '../../styles/mantine-all.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Loader, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import {
  companyRoleWithArticle,
  type InvitationView,
  invitationTokenSchema,
} from '../../../contracts/companies.ts';
import { errorMessage } from '../../../contracts/error-message.ts';
import { currentEmail, isSigningIn, loginError } from '../../../machines/auth/auth-selectors.ts';
import { acceptInvitation, joinByInvitation, viewInvitation } from '../../api/companies-api.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { useSave } from '../../app/use-save.ts';
import { fromTask, useTask } from '../../app/use-task.ts';
import { fieldProps } from '../../components/field-props.ts';

/** The secret of the link, from the fragment (`#token=…`), which no server ever receives in a request line. */
function tokenOf(hash: string): string | null {
  const value = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  return invitationTokenSchema.safeParse(value).success ? value : null;
}

/**
 * An invitation link from the mail: what it offers, then, for an address without an account, a
 * name and password that make the account and join; for one with an account, signing in as it and
 * joining. Either ends on the Company screen.
 */
export function InvitationScreen() {
  const { configApi } = useRuntime();
  const hash = useRouterState({ select: (state) => state.location.hash });
  const token = useMemo(() => tokenOf(hash), [hash]);
  const load = useMemo(
    () => fromTask(({ signal }) => viewInvitation(configApi, token ?? '', signal)),
    [configApi, token],
  );
  const view = useTask(load);
  return (
    <Stack gap="md" maw={480} mx="auto">
      <Title order={1} size="h2">
        Invitation
      </Title>
      {token === null ? (
        <Alert color="red" role="alert" title="This link is not complete">
          Open the link from the mail as it is, or copy all of it into the address bar.
        </Alert>
      ) : view.status === 'active' ? (
        <Loader aria-label="Reading the invitation…" />
      ) : view.status === 'error' ? (
        <Alert color="red" role="alert" title="The invitation could not be opened">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{errorMessage(view.error)}</Text>
            <Button size="xs" variant="light" onClick={view.retry}>
              Try again
            </Button>
          </Stack>
        </Alert>
      ) : (
        <Offer view={view.output} token={token} />
      )}
    </Stack>
  );
}

function Offer({ view, token }: { view: InvitationView; token: string }) {
  const { auth } = useRuntime();
  const email = useSelector(auth, currentEmail);
  return (
    <Stack gap="md">
      <Text>
        You are invited to join <strong>{view.company}</strong> as {companyRoleWithArticle(view.role)}, with
        the address <strong>{view.email}</strong>.
      </Text>
      {email !== null && email.toLowerCase() !== view.email.toLowerCase() ? (
        <Alert color="yellow" role="alert" title="Signed in with another address">
          You are signed in as {email}. Sign out, then open the link from the mail again and sign in as{' '}
          {view.email}.
        </Alert>
      ) : view.account ? (
        <JoinWithAccount view={view} token={token} signedIn={email !== null} />
      ) : (
        <JoinWithNewAccount view={view} token={token} />
      )}
    </Stack>
  );
}

/** Once asked to and signed in as the invited address, the join is sent; then the Company screen opens. */
function useJoinWhenSignedIn(token: string, requested: boolean) {
  const { auth, configApi } = useRuntime();
  const navigate = useNavigate();
  const email = useSelector(auth, currentEmail);
  const save = useSave({ refreshes: false, onSaved: () => navigate({ to: '/company', replace: true }) });
  const sent = useRef(false);
  useEffect(() => {
    if (!requested || email === null || sent.current) return;
    sent.current = true;
    save.save((signal) => acceptInvitation(configApi, token, signal));
  }, [requested, email, save, configApi, token]);
  return save;
}

const ONE_COMPANY =
  'A person belongs to one company at a time: joining takes you out of the one you are in, and its sites with it.';

function JoinWithAccount({
  view,
  token,
  signedIn,
}: {
  view: InvitationView;
  token: string;
  signedIn: boolean;
}) {
  const { auth } = useRuntime();
  const busy = useSelector(auth, isSigningIn);
  const signInError = useSelector(auth, loginError);
  const form = useForm<{ password: string }>({
    resolver: zodResolver(z.object({ password: z.string().min(1, 'Enter your password') })),
    defaultValues: { password: '' },
  });
  const [requested, setRequested] = useState(false);
  const save = useJoinWhenSignedIn(token, requested);
  const failed = save.error ? (
    <Alert color="red" role="alert" title="You did not join">
      {save.error}
    </Alert>
  ) : null;
  if (signedIn)
    return (
      <Stack gap="sm">
        <Text size="sm">{ONE_COMPANY}</Text>
        {failed}
        <Button loading={save.pending} onClick={() => setRequested(true)} disabled={requested && !save.error}>
          Join {view.company}
        </Button>
      </Stack>
    );
  const submit = form.handleSubmit(({ password }) => {
    setRequested(true);
    auth.send({ type: 'auth.login', email: view.email, password });
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Sign in to join">
      <Stack gap="sm">
        <Text size="sm">The address has an account: sign in with it to join. {ONE_COMPANY}</Text>
        <TextInput label="E-mail" value={view.email} readOnly autoComplete="username" />
        <PasswordInput
          label="Password"
          required
          autoComplete="current-password"
          {...fieldProps(form, 'password')}
        />
        {signInError && !busy ? (
          <Alert color="red" role="alert" title="Sign-in failed">
            {signInError}
          </Alert>
        ) : null}
        {failed}
        <Button type="submit" loading={busy || save.pending}>
          Sign in and join {view.company}
        </Button>
      </Stack>
    </form>
  );
}

const newAccountSchema = z
  .object({
    name: z.string().trim().min(1, 'Enter your name').max(120, 'At most 120 characters'),
    password: z.string().min(8, 'Choose at least 8 characters').max(256, 'At most 256 characters'),
    repeat: z.string(),
  })
  .refine((values) => values.password === values.repeat, {
    message: 'The passwords differ',
    path: ['repeat'],
  });

function JoinWithNewAccount({ view, token }: { view: InvitationView; token: string }) {
  const { auth, configApi } = useRuntime();
  const navigate = useNavigate();
  const busy = useSelector(auth, isSigningIn);
  const signInError = useSelector(auth, loginError);
  const email = useSelector(auth, currentEmail);
  const form = useForm<z.infer<typeof newAccountSchema>>({
    resolver: zodResolver(newAccountSchema),
    defaultValues: { name: '', password: '', repeat: '' },
  });
  const save = useSave<string>({
    refreshes: false,
    // The account is made and in the company: sign in with it, as on the sign-in screen.
    onSaved: (password) => auth.send({ type: 'auth.login', email: view.email, password }),
  });
  useEffect(() => {
    if (save.saved && email !== null) void navigate({ to: '/company', replace: true });
  }, [save.saved, email, navigate]);
  const submit = form.handleSubmit(({ name, password }) =>
    save.save(async (signal) => {
      await joinByInvitation(configApi, token, { name, password }, signal);
      return password;
    }),
  );
  return (
    <form onSubmit={submit} noValidate aria-label="Create your account and join">
      <Stack gap="sm">
        <TextInput label="E-mail" value={view.email} readOnly autoComplete="username" />
        <TextInput label="Your name" required autoComplete="name" {...fieldProps(form, 'name')} />
        <PasswordInput
          label="Choose a password"
          required
          autoComplete="new-password"
          {...fieldProps(form, 'password')}
        />
        <PasswordInput
          label="Repeat the password"
          required
          autoComplete="new-password"
          {...fieldProps(form, 'repeat')}
        />
        {save.error ? (
          <Alert color="red" role="alert" title="You did not join">
            {save.error}
          </Alert>
        ) : null}
        {save.saved && signInError && !busy ? (
          <Alert color="red" role="alert" title="Your account is made, but signing in failed">
            {signInError}
          </Alert>
        ) : null}
        <Button type="submit" loading={save.pending || busy}>
          Create account and join {view.company}
        </Button>
      </Stack>
    </form>
  );
}
