import { valibotResolver } from '@hookform/resolvers/valibot';
import { Button, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { fieldProps } from '../../components/field-props.ts';
import { type ResetSubmitValues, resetSubmitSchema } from './sign-in-schemas.ts';

/**
 * "Choose your password": e-mail, the access code from the mail, and the new password (a reset
 * and a new account's first sign-in alike). Focus goes to the first field still empty.
 */
export function ResetSubmitForm({
  defaultEmail,
  defaultCode,
  busy,
  onSubmit,
}: {
  defaultEmail: string;
  defaultCode: string;
  busy: boolean;
  onSubmit: (values: ResetSubmitValues) => void;
}) {
  const form = useForm<ResetSubmitValues>({
    resolver: valibotResolver(resetSubmitSchema),
    defaultValues: { email: defaultEmail, code: defaultCode, newPassword: '' },
  });
  const focus = !defaultEmail ? 'email' : !defaultCode ? 'code' : 'newPassword';
  return (
    <form onSubmit={form.handleSubmit(onSubmit)} noValidate aria-labelledby="choose-password">
      <Stack>
        <Title order={2} size="h4" id="choose-password">
          Choose your password
        </Title>
        <Text size="sm">
          {defaultCode
            ? 'Your e-mail and access code are filled in from the mail. Choose a password of at least 8 characters.'
            : 'Type the access code from the mail (8 digits) and choose a password of at least 8 characters.'}
        </Text>
        <TextInput
          label="E-mail"
          type="email"
          autoComplete="username"
          required
          autoFocus={focus === 'email'}
          {...fieldProps(form, 'email')}
        />
        <TextInput
          label="Access code"
          autoComplete="one-time-code"
          inputMode="numeric"
          required
          autoFocus={focus === 'code'}
          {...fieldProps(form, 'code')}
        />
        <PasswordInput
          label="New password"
          autoComplete="new-password"
          required
          autoFocus={focus === 'newPassword'}
          {...fieldProps(form, 'newPassword')}
        />
        <Button type="submit" loading={busy} fullWidth>
          Set password and sign in
        </Button>
      </Stack>
    </form>
  );
}
