import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useNavigate } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { useRuntime } from '../../app/runtime-context.tsx';
import { useSave } from '../../app/use-save.ts';
import { createInstaller, createOwner } from './users-api.ts';

const schema = z.object({
  main_email: z.string().trim().min(1, 'Enter an e-mail address').email('Enter a valid e-mail address'),
  name: z.string().trim().min(1, 'Enter a name').max(120, 'At most 120 characters'),
  phone: z
    .string()
    .trim()
    .refine((v) => v === '' || /^[+0-9 ()-]{3,32}$/.test(v), 'Digits, spaces, +, -, ( and ) only'),
});
type Values = z.infer<typeof schema>;

/** What a creation answers: the new installer's id, or the server's word about an owner's invitation. */
type Created = { kind: 'installer'; id: number } | { kind: 'owner'; email: string; message: string };

/**
 * Create an installer (admin) or an owner (installer or admin). The new user gets an access code
 * by e-mail and chooses a password. A new installer's page opens; for an owner the server says only
 * that an invitation is on its way (it does not tell whether the address had an account), so the
 * message is shown and the users list opens on that address.
 */
export function CreateUserForm({ role, onClose }: { role: 'installer' | 'owner'; onClose: () => void }) {
  const { configApi } = useRuntime();
  const navigate = useNavigate();
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { main_email: '', name: '', phone: '' },
  });
  const { errors } = form.formState;
  const save = useSave<Created>({
    onSaved: async (created) => {
      if (created.kind === 'installer') {
        await navigate({ to: '/user-details/$userid', params: { userid: String(created.id) } });
        return;
      }
      notifications.show({ color: 'teal', title: 'Owner invited', message: created.message });
      onClose();
      await navigate({ to: '/users-list', search: { page: 0, q: created.email } });
    },
  });
  const submit = form.handleSubmit((values) => {
    const body = {
      main_email: values.main_email,
      name: values.name,
      ...(values.phone ? { phone: values.phone } : {}),
    };
    save.save(
      async (signal): Promise<Created> =>
        role === 'installer'
          ? { kind: 'installer', id: (await createInstaller(configApi, body, signal)).id }
          : { kind: 'owner', email: values.main_email, message: await createOwner(configApi, body, signal) },
    );
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
        {save.error ? (
          <Alert color="red" role="alert" title="The user was not created">
            {save.error}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={save.pending}>
            {role === 'installer' ? 'Create installer' : 'Create owner'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
