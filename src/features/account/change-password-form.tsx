import { zodResolver } from '@hookform/resolvers/zod';
import { PasswordInput, Text } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { waitFor } from 'xstate';
import { z } from 'zod';
import { isAuthenticated, loginError } from '../../../machines/auth/auth-selectors.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { useSave } from '../../app/use-save.ts';
import { fieldProps } from '../../components/field-props.ts';
import { FormDialog } from '../../components/form-dialog.tsx';
import { useUnsavedWork } from '../../components/leave-guard.tsx';
import { changeOwnPassword } from './account-api.ts';

const schema = z
  .object({
    current: z.string().min(1, 'Enter your current password'),
    next: z.string().min(8, 'Use at least 8 characters').max(256, 'That password is too long'),
    again: z.string(),
  })
  .refine((v) => v.next === v.again, { message: 'The two new passwords differ', path: ['again'] })
  .refine((v) => v.next !== v.current, {
    message: 'Choose a password other than the current one',
    path: ['next'],
  });
type Values = z.infer<typeof schema>;

/** How a failure to sign in again after the change begins: the password was changed all the same. */
const CHANGED_BUT = 'Your password was changed, but signing in again failed';

/**
 * "Change password": the current one, and the new one twice (`PUT /users/me/password`). The
 * change signs the account out everywhere, this browser too; the new password then signs this
 * browser in again at once, so the person stays where they are.
 */
export function ChangePasswordForm({ email, onDone }: { email: string; onDone: (changed: boolean) => void }) {
  const { configApi, auth } = useRuntime();
  // Nothing a screen shows changes with a password: the page's loaders need not run again.
  const save = useSave({ refreshes: false, onSaved: () => onDone(true) });
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { current: '', next: '', again: '' },
  });
  const { isDirty } = form.formState;
  useUnsavedWork({ id: 'change-password', kind: 'form', label: 'Change password' }, save.holdsEdits(isDirty));
  const submit = form.handleSubmit((values) =>
    save.save(async (signal) => {
      await changeOwnPassword(
        configApi,
        { current_password: values.current, new_password: values.next },
        signal,
      );
      auth.send({ type: 'auth.login', email, password: values.next });
      const after = await waitFor(auth, (s) => !s.matches({ session: 'signingIn' }), { signal });
      if (!isAuthenticated(after))
        throw new Error(`${CHANGED_BUT}: ${loginError(after) ?? 'sign in with the new password'}.`);
    }),
  );
  return (
    <FormDialog
      title="Change password"
      onClose={() => onDone(false)}
      onSubmit={submit}
      busy={save.pending}
      error={save.error}
      errorTitle={save.error?.startsWith(CHANGED_BUT) ? 'Signed out' : 'The password was not changed'}
      submitLabel="Change password"
    >
      <Text size="sm" c="dimmed">
        Changing it signs your account out on every other phone and computer.
      </Text>
      <PasswordInput
        label="Current password"
        required
        autoComplete="current-password"
        {...fieldProps(form, 'current')}
      />
      <PasswordInput
        label="New password"
        description="At least 8 characters"
        required
        autoComplete="new-password"
        {...fieldProps(form, 'next')}
      />
      <PasswordInput
        label="New password again"
        required
        autoComplete="new-password"
        {...fieldProps(form, 'again')}
      />
    </FormDialog>
  );
}
