import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { errorMessage } from '../../../contracts/error-message.ts';
import type { User } from '../../../contracts/users.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { holdsEdits, useUnsavedWork } from '../../components/leave-guard.tsx';
import { updateOwnProfile } from './account-api.ts';

const schema = z.object({
  name: z.string().trim().min(1, 'Enter your name').max(120, 'At most 120 characters'),
  phone: z
    .string()
    .trim()
    .refine((v) => v === '' || /^[+0-9 ()-]{3,32}$/.test(v), 'Digits, spaces, +, -, ( and ) only'),
});
type Values = z.infer<typeof schema>;

/**
 * "Profile": one's own name and phone (`PUT /users/me/profile`). The menu shows the new name at
 * once: the configuration token is refreshed, and its `name` claim comes from the new record.
 */
export function ProfileForm({ user, onDone }: { user: User; onDone: () => void }) {
  const { configApi, auth } = useRuntime();
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { name: user.name, phone: user.phone ?? '' },
  });
  const { errors, isSubmitting } = form.formState;
  useUnsavedWork({ id: 'profile', kind: 'form', label: 'Profile' }, holdsEdits(form.formState));
  const submit = form.handleSubmit(async (values) => {
    try {
      await updateOwnProfile(configApi, { name: values.name, phone: values.phone || null });
      auth.send({ type: 'auth.refresh', service: 'config' });
      onDone();
    } catch (error) {
      form.setError('root', { message: errorMessage(error) });
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Profile">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Signed in as {user.main_email}. Your name shows in the menu and to the people you work with.
        </Text>
        <TextInput
          label="Name"
          required
          autoComplete="name"
          {...form.register('name')}
          error={errors.name?.message}
        />
        <TextInput
          label="Phone"
          type="tel"
          autoComplete="tel"
          description="Optional"
          {...form.register('phone')}
          error={errors.phone?.message}
        />
        {errors.root ? (
          <Alert color="red" role="alert" title="Your profile was not saved">
            {errors.root.message}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={isSubmitting}>
            Save profile
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
