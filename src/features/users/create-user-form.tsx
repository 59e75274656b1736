import { zodResolver } from '@hookform/resolvers/zod';
import { TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useNavigate } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { PHONE_PATTERN } from '../../../contracts/users.ts';
import type { ApiClient } from '../../api/api-client.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { useSave } from '../../app/use-save.ts';
import { fieldProps } from '../../components/field-props.ts';
import { FormDialog } from '../../components/form-dialog.tsx';
import { useUnsavedWork } from '../../components/leave-guard.tsx';
import { createInstaller, createOwner } from './users-api.ts';

const schema = z.object({
  main_email: z.string().trim().min(1, 'Enter an e-mail address').email('Enter a valid e-mail address'),
  name: z.string().trim().min(1, 'Enter a name').max(120, 'At most 120 characters'),
  phone: z
    .string()
    .trim()
    .refine((v) => v === '' || PHONE_PATTERN.test(v), 'Digits, spaces, +, -, ( and ) only'),
});
type Values = z.infer<typeof schema>;

/** What a creation answers: the address created and the words to say about it. */
type Created = { email: string; message: string };

/** The kinds of user the Users screen creates. */
export type NewUserKind = 'installer' | 'owner';

type NewUser = { main_email: string; name: string; phone?: string };

/** What differs between creating an installer and an owner: the words, and the service's call. */
export const NEW_USER: Record<
  NewUserKind,
  {
    title: string;
    created: string;
    create: (api: ApiClient, body: NewUser, signal: AbortSignal) => Promise<string>;
  }
> = {
  installer: {
    title: 'Create installer',
    created: 'Installer created',
    create: async (api, body, signal) => {
      await createInstaller(api, body, signal);
      return `${body.main_email} can sign in with the access code on its way to them.`;
    },
  },
  owner: {
    title: 'Create owner',
    created: 'Owner invited',
    // The service says no more than that a code is on its way: it does not tell whether the address had an account.
    create: (api, body, signal) => createOwner(api, body, signal),
  },
};

/**
 * Create an installer (admin) or an owner (installer or admin). The new user gets an access code
 * by e-mail and chooses a password. Both end in the same place: a message saying the access code
 * is on its way, and the users list opened on that address (for an owner the server says no more,
 * since it does not tell whether the address had an account).
 */
export function CreateUserForm({ kind, onClose }: { kind: NewUserKind; onClose: () => void }) {
  const { configApi } = useRuntime();
  const navigate = useNavigate();
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { main_email: '', name: '', phone: '' },
  });
  const { isDirty } = form.formState;
  const { title, created, create } = NEW_USER[kind];
  const save = useSave<Created>({
    onSaved: async ({ email, message }) => {
      notifications.show({
        color: 'teal',
        title: created,
        message,
      });
      onClose();
      await navigate({ to: '/users-list', search: { page: 0, q: email }, ignoreBlocker: true });
    },
  });
  useUnsavedWork({ id: 'create-user', kind: 'form', label: title }, save.holdsEdits(isDirty));
  const submit = form.handleSubmit((values) => {
    const body = {
      main_email: values.main_email,
      name: values.name,
      ...(values.phone ? { phone: values.phone } : {}),
    };
    save.save(
      async (signal): Promise<Created> => ({
        email: values.main_email,
        message: await create(configApi, body, signal),
      }),
    );
  });
  return (
    <FormDialog
      title={title}
      onClose={onClose}
      onSubmit={submit}
      busy={save.pending}
      error={save.error}
      errorTitle="The user was not created"
      submitLabel={title}
    >
      <TextInput label="E-mail" type="email" required {...fieldProps(form, 'main_email')} />
      <TextInput label="Name" required {...fieldProps(form, 'name')} />
      <TextInput label="Phone" type="tel" {...fieldProps(form, 'phone')} />
    </FormDialog>
  );
}
