import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Stack, TextInput } from '@mantine/core';
import { useRouter } from '@tanstack/react-router';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { errorMessage } from '../../../contracts/error-message.ts';
import type { SiteDetails } from '../../../contracts/sites.ts';
import type { User } from '../../../contracts/users.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { holdsEdits, useUnsavedWork } from '../../components/leave-guard.tsx';
import { OwnerSelect } from './owner-select.tsx';
import { sitePayloadOf } from './site-payload.ts';
import { updateSite } from './sites-api.ts';

const schema = z.object({
  name: z.string().trim().min(1, 'Give the site a name').max(120, 'At most 120 characters'),
  ownerId: z.string(),
});
type Values = z.infer<typeof schema>;

/** Edit a site's name and attach an owner (`PUT /sites/{id}` with the whole site payload). */
export function SiteEditForm({
  site,
  owners,
  onDone,
}: {
  site: SiteDetails;
  owners: User[];
  onDone: () => void;
}) {
  const { configApi } = useRuntime();
  const router = useRouter();
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { name: site.name, ownerId: site.ownerId ? String(site.ownerId) : '' },
  });
  useUnsavedWork({ id: 'site-edit', kind: 'form', label: 'Edit site' }, holdsEdits(form.formState));
  const submit = form.handleSubmit(async (values) => {
    try {
      await updateSite(configApi, site.id, {
        ...sitePayloadOf(site),
        name: values.name,
        ownerId: values.ownerId ? Number(values.ownerId) : null,
      });
      await router.invalidate();
      onDone();
    } catch (error) {
      form.setError('root', { message: errorMessage(error) });
    }
  });
  const errors = form.formState.errors;
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput label="Site name" required {...form.register('name')} error={errors.name?.message} />
        <Controller
          control={form.control}
          name="ownerId"
          render={({ field }) => (
            <OwnerSelect
              owners={owners}
              description="The owner sees this site once attached"
              value={field.value}
              onChange={field.onChange}
            />
          )}
        />
        {errors.root ? (
          <Alert color="red" role="alert" title="The site was not saved">
            {errors.root.message}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={form.formState.isSubmitting}>
            Save site
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
