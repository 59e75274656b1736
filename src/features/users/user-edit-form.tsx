import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import type { User, UserRole } from '../../../contracts/users.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { useSave } from '../../app/use-save.ts';
import { useUnsavedWork } from '../../components/leave-guard.tsx';
import { ROLE_LABELS } from './user-columns.tsx';
import { updateUser } from './users-api.ts';

const schema = z.object({
  main_email: z.string().trim().min(1, 'Enter an e-mail address').email('Enter a valid e-mail address'),
  name: z.string().trim().min(1, 'Enter a name').max(120, 'At most 120 characters'),
  phone: z
    .string()
    .trim()
    .refine((v) => v === '' || /^[+0-9 ()-]{3,32}$/.test(v), 'Digits, spaces, +, -, ( and ) only'),
  role: z.enum(['admin', 'installer', 'owner']),
});
type Values = z.infer<typeof schema>;

/**
 * Edit a user (`PUT /users/{id}`): only what changed is sent; the role only by an admin. A
 * changed e-mail ends that user's sessions (the server's rule).
 */
export function UserEditForm({
  user,
  canChangeRole,
  onDone,
}: {
  user: User;
  canChangeRole: boolean;
  onDone: () => void;
}) {
  const { configApi } = useRuntime();
  const save = useSave({ onSaved: onDone });
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { main_email: user.main_email, name: user.name, phone: user.phone ?? '', role: user.role },
  });
  const { errors, isDirty } = form.formState;
  useUnsavedWork({ id: 'user-edit', kind: 'form', label: 'Edit user' }, save.holdsEdits(isDirty));
  const submit = form.handleSubmit((values) => {
    const body = {
      ...(values.main_email.toLowerCase() !== user.main_email ? { main_email: values.main_email } : {}),
      ...(values.name !== user.name ? { name: values.name } : {}),
      ...(values.phone !== (user.phone ?? '') ? { phone: values.phone || null } : {}),
      ...(canChangeRole && values.role !== user.role ? { role: values.role } : {}),
    };
    if (Object.keys(body).length === 0) return onDone();
    save.save((signal) => updateUser(configApi, user.id, body, signal));
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label="E-mail"
          type="email"
          required
          {...form.register('main_email')}
          error={errors.main_email?.message}
        />
        <TextInput label="Name" required {...form.register('name')} error={errors.name?.message} />
        <TextInput label="Phone" type="tel" {...form.register('phone')} error={errors.phone?.message} />
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
        {save.error ? (
          <Alert color="red" role="alert" title="The user was not saved">
            {save.error}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={save.pending}>
            Save user
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
