import { valibotResolver } from '@hookform/resolvers/valibot';
import { Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { type ResetSubmitValues, resetSubmitSchema } from './sign-in-schemas.ts';

/** Step 2 of a password reset: e-mail, the access code that was sent, and the new password. */
export function ResetSubmitForm({
  defaultEmail,
  busy,
  onSubmit,
}: {
  defaultEmail: string;
  busy: boolean;
  onSubmit: (values: ResetSubmitValues) => void;
}) {
  const { register, handleSubmit, formState } = useForm<ResetSubmitValues>({
    resolver: valibotResolver(resetSubmitSchema),
    defaultValues: { email: defaultEmail, code: '', newPassword: '' },
  });
  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate aria-label="Set a new password">
      <Stack>
        <Text size="sm">Enter the access code we sent you and choose a new password.</Text>
        <TextInput
          label="E-mail"
          type="email"
          autoComplete="username"
          required
          error={formState.errors.email?.message}
          {...register('email')}
        />
        <TextInput
          label="Access code"
          autoComplete="one-time-code"
          required
          // The e-mail is filled in already: the code from the mail comes next.
          autoFocus
          error={formState.errors.code?.message}
          {...register('code')}
        />
        <PasswordInput
          label="New password"
          autoComplete="new-password"
          required
          error={formState.errors.newPassword?.message}
          {...register('newPassword')}
        />
        <Button type="submit" loading={busy} fullWidth>
          Set new password
        </Button>
      </Stack>
    </form>
  );
}
