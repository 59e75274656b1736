import { zodResolver } from '@hookform/resolvers/zod';
import { TextInput } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import type { SiteDetails } from '../../../contracts/sites.ts';
import type { User } from '../../../contracts/users.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { useSave } from '../../app/use-save.ts';
import { fieldProps } from '../../components/field-props.ts';
import { FormDialog } from '../../components/form-dialog.tsx';
import { useUnsavedWork } from '../../components/leave-guard.tsx';
import { OwnerField } from './owner-select.tsx';
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
  const save = useSave({ onSaved: onDone });
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { name: site.name, ownerId: site.ownerId ? String(site.ownerId) : '' },
  });
  useUnsavedWork(
    { id: 'site-edit', kind: 'form', label: 'Edit site' },
    save.holdsEdits(form.formState.isDirty),
  );
  const submit = form.handleSubmit((values) =>
    save.save((signal) =>
      updateSite(
        configApi,
        site.id,
        {
          ...sitePayloadOf(site),
          name: values.name,
          ownerId: values.ownerId ? Number(values.ownerId) : null,
        },
        signal,
      ),
    ),
  );
  return (
    <FormDialog
      title="Edit site"
      onClose={onDone}
      onSubmit={submit}
      busy={save.pending}
      error={save.error}
      errorTitle="The site was not saved"
      submitLabel="Save site"
    >
      <TextInput label="Site name" required {...fieldProps(form, 'name')} />
      <OwnerField
        control={form.control}
        owners={owners}
        description="The owner sees this site once attached"
      />
    </FormDialog>
  );
}
