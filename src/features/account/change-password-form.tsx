import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { waitFor } from 'xstate';
import { z } from 'zod';
import { errorMessage } from '../../../contracts/error-message.ts';
import { isAuthenticated, loginError } from '../../../machines/auth/auth-selectors.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { holdsEdits, useUnsavedWork } from '../../components/leave-guard.tsx';
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

/**
 * "Change password": the current one, and the new one twice (`PUT /users/me/password`). The
 * change signs the account out everywhere, this browser too; the new password then signs this
 * browser in again at once, so the person stays where they are.
 */
export function ChangePasswordForm({ email, onDone }: { email: string; onDone: (changed: boolean) => void }) {
  const { configApi, auth } = useRuntime();
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { current: '', next: '', again: '' },
  });
  const { errors, isSubmitting } = form.formState;
  useUnsavedWork(
    { id: 'change-password', kind: 'form', label: 'Change password' },
    holdsEdits(form.formState),
  );
  const submit = form.handleSubmit(async (values) => {
    try {
      await changeOwnPassword(configApi, { current_password: values.current, new_password: values.next });
    } catch (error) {
      form.setError('root', { message: errorMessage(error) });
      return;
    }
    auth.send({ type: 'auth.login', email, password: values.next });
    const after = await waitFor(auth, (s) => !s.matches({ session: 'signingIn' }));
    if (!isAuthenticated(after)) {
      form.setError('root', {
        message: `Your password was changed, but signing in again failed: ${loginError(after) ?? 'sign in with the new password'}.`,
      });
      return;
    }
    onDone(true);
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Change password">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Changing it signs your account out on every other phone and computer.
        </Text>
        <PasswordInput
          label="Current password"
          required
          autoComplete="current-password"
          {...form.register('current')}
          error={errors.current?.message}
        />
        <PasswordInput
          label="New password"
          description="At least 8 characters"
          required
          autoComplete="new-password"
          {...form.register('next')}
          error={errors.next?.message}
        />
        <PasswordInput
          label="New password again"
          required
          autoComplete="new-password"
          {...form.register('again')}
          error={errors.again?.message}
        />
        {errors.root ? (
          <Alert color="red" role="alert" title="The password was not changed">
            {errors.root.message}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => onDone(false)}>
            Cancel
          </Button>
          <Button type="submit" loading={isSubmitting}>
            Change password
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
