import { valibotResolver } from '@hookform/resolvers/valibot';
import { Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { fieldProps } from '../../components/field-props.ts';
import { type ResetRequestValues, resetRequestSchema } from './sign-in-schemas.ts';

/** Step 1 of a password reset: the e-mail that receives an access code. */
export function ResetRequestForm({
  defaultEmail,
  busy,
  onSubmit,
}: {
  defaultEmail: string;
  busy: boolean;
  onSubmit: (email: string) => void;
}) {
  const form = useForm<ResetRequestValues>({
    resolver: valibotResolver(resetRequestSchema),
    defaultValues: { email: defaultEmail },
  });
  return (
    <form
      onSubmit={form.handleSubmit(({ email }) => onSubmit(email))}
      noValidate
      aria-label="Request an access code"
    >
      <Stack>
        <Text size="sm">We will e-mail you an access code to set a new password.</Text>
        <TextInput
          label="E-mail"
          type="email"
          autoComplete="username"
          required
          // Opening the reset is no route change: focus goes to the field it asks for.
          autoFocus
          {...fieldProps(form, 'email')}
        />
        <Button type="submit" loading={busy} fullWidth>
          Send access code
        </Button>
      </Stack>
    </form>
  );
}
