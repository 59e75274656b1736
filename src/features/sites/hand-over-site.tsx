import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowsExchange } from '@tabler/icons-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { useRuntime } from '../../app/runtime-context.tsx';
import { useSave } from '../../app/use-save.ts';
import { fieldProps } from '../../components/field-props.ts';
import { FormDialog } from '../../components/form-dialog.tsx';
import { useUnsavedWork } from '../../components/leave-guard.tsx';
import { offerSite } from './sites-api.ts';

const schema = z.object({
  email: z.string().trim().min(1, 'Enter an e-mail address').email('Enter a valid e-mail address'),
});

/**
 * "Hand over": the site's owner (or staff) offers the site to another installer company, named by
 * the address of one of its people. The site changes hands when one of that company's admins
 * accepts on their Company screen; until then nothing changes.
 */
export function HandOverSite({ siteId, siteName }: { siteId: number; siteName: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="light"
        leftSection={<IconArrowsExchange size={16} aria-hidden />}
        onClick={() => setOpen(true)}
      >
        Hand over
      </Button>
      {open ? <HandOverForm siteId={siteId} siteName={siteName} onDone={() => setOpen(false)} /> : null}
    </>
  );
}

function HandOverForm({
  siteId,
  siteName,
  onDone,
}: {
  siteId: number;
  siteName: string;
  onDone: () => void;
}) {
  const { configApi } = useRuntime();
  const form = useForm<z.infer<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { email: '' },
  });
  const { isDirty } = form.formState;
  const save = useSave<string>({
    refreshes: false,
    onSaved: (company) => {
      notifications.show({
        color: 'teal',
        title: 'Site offered',
        message: `${siteName} is offered to ${company}. It is theirs once one of its admins accepts.`,
      });
      onDone();
    },
  });
  useUnsavedWork({ id: 'hand-over', kind: 'form', label: 'Hand over' }, save.holdsEdits(isDirty));
  const submit = form.handleSubmit(({ email }) =>
    save.save(async (signal) => (await offerSite(configApi, siteId, email.toLowerCase(), signal)).toCompany),
  );
  return (
    <FormDialog
      title="Hand the site to another installer company"
      onClose={onDone}
      onSubmit={submit}
      busy={save.pending}
      error={save.error}
      errorTitle="The site was not offered"
      submitLabel="Offer the site"
    >
      <Text size="sm">
        The company you hand {siteName} to sees it and works on it once one of its admins accepts; the company
        that has it now loses it then. Its history stays, marked with who held the site.
      </Text>
      <TextInput
        label="E-mail of someone at the new company"
        type="email"
        required
        {...fieldProps(form, 'email')}
      />
    </FormDialog>
  );
}
