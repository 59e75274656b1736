import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import type { User } from '../../../contracts/users.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { useSave } from '../../app/use-save.ts';
import { useUnsavedWork } from '../../components/leave-guard.tsx';
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
  // The configuration token is refreshed once saved: its `name` claim, shown in the menu, comes
  // from the new record.
  const save = useSave({
    onSaved: () => {
      auth.send({ type: 'auth.refresh', service: 'config' });
      onDone();
    },
  });
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { name: user.name, phone: user.phone ?? '' },
  });
  const { errors, isDirty } = form.formState;
  useUnsavedWork({ id: 'profile', kind: 'form', label: 'Profile' }, save.holdsEdits(isDirty));
  const submit = form.handleSubmit((values) =>
    save.save((signal) =>
      updateOwnProfile(configApi, { name: values.name, phone: values.phone || null }, signal),
    ),
  );
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
        {save.error ? (
          <Alert color="red" role="alert" title="Your profile was not saved">
            {save.error}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={save.pending}>
            Save profile
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
