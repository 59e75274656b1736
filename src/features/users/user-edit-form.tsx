import { zodResolver } from '@hookform/resolvers/zod';
import { PasswordInput, Select, Text, TextInput } from '@mantine/core';
import { useMemo } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { waitFor } from 'xstate';
import { z } from 'zod';
import type { User, UserRole } from '../../../contracts/users.ts';
import { PHONE_PATTERN } from '../../../contracts/users.ts';
import { isAuthenticated, loginError } from '../../../machines/auth/auth-selectors.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { useSave } from '../../app/use-save.ts';
import { fieldProps } from '../../components/field-props.ts';
import { FormDialog } from '../../components/form-dialog.tsx';
import { useUnsavedWork } from '../../components/leave-guard.tsx';
import { ROLE_LABELS } from './user-columns.tsx';
import { updateUser } from './users-api.ts';

const fields = {
  main_email: z.string().trim().min(1, 'Enter an e-mail address').email('Enter a valid e-mail address'),
  name: z.string().trim().min(1, 'Enter a name').max(120, 'At most 120 characters'),
  phone: z
    .string()
    .trim()
    .refine((v) => v === '' || PHONE_PATTERN.test(v), 'Digits, spaces, +, -, ( and ) only'),
  role: z.enum(['admin', 'installer', 'owner']),
  current_password: z.string(),
};
type Values = z.infer<z.ZodObject<typeof fields>>;

/** How a failure to sign in again after one's own e-mail changed begins: it changed all the same. */
const CHANGED_BUT = 'Your sign-in e-mail was changed, but signing in again failed';

const emailChanged = (values: Pick<Values, 'main_email'>, user: User) =>
  values.main_email.trim().toLowerCase() !== user.main_email;

/**
 * Edit a user (`PUT /users/{id}`): only what changed is sent; the role only by an admin. A
 * changed e-mail ends that user's sessions (the server's rule). On one's own page ("Profile",
 * `self`) a new name shows in the menu at once (the configuration token, whose `name` claim it
 * is, is refreshed), and a new sign-in e-mail needs the current password, which then signs this
 * browser in again, as changing the password does.
 */
export function UserEditForm({
  user,
  self = false,
  canChangeRole,
  onDone,
}: {
  user: User;
  self?: boolean;
  canChangeRole: boolean;
  onDone: () => void;
}) {
  const { configApi, auth } = useRuntime();
  const save = useSave({ onSaved: onDone });
  const schema = useMemo(
    () =>
      z.object(fields).refine((v) => !self || !emailChanged(v, user) || v.current_password !== '', {
        message: 'Enter your current password to change your sign-in e-mail',
        path: ['current_password'],
      }),
    [self, user],
  );
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: {
      main_email: user.main_email,
      name: user.name,
      phone: user.phone ?? '',
      role: user.role,
      current_password: '',
    },
  });
  const { isDirty } = form.formState;
  useUnsavedWork(
    { id: 'user-edit', kind: 'form', label: self ? 'Profile' : 'Edit user' },
    save.holdsEdits(isDirty),
  );
  const newEmail = self && emailChanged(form.watch(), user);
  const submit = form.handleSubmit((values) => {
    const changesEmail = emailChanged(values, user);
    const body = {
      ...(changesEmail ? { main_email: values.main_email } : {}),
      ...(changesEmail && self ? { current_password: values.current_password } : {}),
      ...(values.name !== user.name ? { name: values.name } : {}),
      ...(values.phone !== (user.phone ?? '') ? { phone: values.phone || null } : {}),
      ...(canChangeRole && values.role !== user.role ? { role: values.role } : {}),
    };
    if (Object.keys(body).length === 0) return onDone();
    save.save(async (signal) => {
      await updateUser(configApi, user.id, body, signal);
      if (!self) return;
      if (!changesEmail) {
        auth.send({ type: 'auth.refresh', service: 'config' });
        return;
      }
      // A new sign-in e-mail ended every session of the account, this one too.
      auth.send({ type: 'auth.login', email: values.main_email.trim(), password: values.current_password });
      const after = await waitFor(auth, (s) => !s.matches({ session: 'signingIn' }), { signal });
      if (!isAuthenticated(after))
        throw new Error(`${CHANGED_BUT}: ${loginError(after) ?? 'sign in with the new e-mail'}.`);
    });
  });
  return (
    <FormDialog
      title={self ? 'Profile' : 'Edit user'}
      onClose={onDone}
      onSubmit={submit}
      busy={save.pending}
      error={save.error}
      errorTitle={self ? 'Your profile was not saved' : 'The user was not saved'}
      submitLabel={self ? 'Save profile' : 'Save user'}
    >
      {self ? (
        <Text size="sm" c="dimmed">
          Your name shows in the menu and to the people you work with.
        </Text>
      ) : null}
      <TextInput
        label={self ? 'Sign-in e-mail' : 'E-mail'}
        type="email"
        required
        autoComplete={self ? 'email' : 'off'}
        {...fieldProps(form, 'main_email')}
        description={
          self ? 'Changing it signs your account out on every other phone and computer.' : undefined
        }
      />
      {newEmail ? (
        <PasswordInput
          label="Current password"
          required
          autoComplete="current-password"
          {...fieldProps(form, 'current_password')}
        />
      ) : null}
      <TextInput label="Name" required autoComplete={self ? 'name' : 'off'} {...fieldProps(form, 'name')} />
      <TextInput
        label="Phone"
        type="tel"
        autoComplete={self ? 'tel' : 'off'}
        {...fieldProps(form, 'phone')}
      />
      {canChangeRole ? (
        <Controller
          control={form.control}
          name="role"
          render={({ field }) => (
            <Select
              label="Role"
              data={Object.entries(ROLE_LABELS).map(([value, label]) => ({ value, label }))}
              value={field.value}
              allowDeselect={false}
              onChange={(value) => field.onChange((value ?? user.role) as UserRole)}
            />
          )}
        />
      ) : null}
    </FormDialog>
  );
}
