import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Button,
  FileInput,
  Group,
  Modal,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEdit, IconMailForward } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import {
  type CompanyInvitation,
  type CompanyMember,
  companyRoleSchema,
  LOGO_MAX_BYTES,
  logoTypeSchema,
  type MyCompany,
  type SiteHandover,
} from '../../../contracts/companies.ts';
import {
  decideHandover,
  inviteMember,
  removeLogo,
  removeMember,
  saveCompanyDetails,
  saveLogo,
  setMemberRole,
  withdrawInvitation,
} from '../../api/companies-api.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { useSave } from '../../app/use-save.ts';
import { fieldProps } from '../../components/field-props.ts';
import { FormDialog } from '../../components/form-dialog.tsx';
import { FormFooter } from '../../components/form-footer.tsx';
import { formatDate } from '../../components/format-date.ts';
import { useUnsavedWork } from '../../components/leave-guard.tsx';
import { type Column, DataList } from '../../components/lists/data-list.tsx';
import { EmptyState } from '../../components/page-state.tsx';
import { ScreenHeader } from '../../components/screen-header.tsx';
import { Fact, SectionCard } from '../../components/section-card.tsx';
import { COMPANY_ROLE_LABELS, ROLE_CHOICES } from './company-roles.ts';

const route = getRouteApi('/_shell/company');

/**
 * Company: the installer company the signed-in person belongs to: its details (printed on the
 * commissioning report), its members and their company roles, and, for its admins, invitations
 * by mail, role changes and removal. Someone in no company is told how to join one.
 */
export function CompanyScreen() {
  const { me, mine, may } = route.useLoaderData();
  if (!mine) {
    return (
      <Stack gap="lg">
        <ScreenHeader title="Company" />
        <EmptyState title="You belong to no company">
          An admin of an installer company invites you by mail; the link in that mail adds you.
        </EmptyState>
      </Stack>
    );
  }
  return (
    <Stack gap="lg">
      <ScreenHeader title={mine.company.name} description={`Your role: ${COMPANY_ROLE_LABELS[mine.role]}`} />
      <CompanyDetailsCard mine={mine} mayEdit={may.run} />
      <MembersCard mine={mine} myId={me.id} mayRun={may.run} />
      {may.run && mine.handovers.length > 0 ? <HandoversCard handovers={mine.handovers} /> : null}
      {may.run ? <InvitationsCard invitations={mine.invitations} /> : null}
    </Stack>
  );
}

function CompanyDetailsCard({ mine, mayEdit }: { mine: MyCompany; mayEdit: boolean }) {
  const [editing, setEditing] = useState(false);
  return (
    <SectionCard title="Details">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Fact label="Name">{mine.company.name}</Fact>
        <Fact label="Address">{mine.company.address || '—'}</Fact>
      </SimpleGrid>
      <Text size="sm" c="dimmed" mt="sm">
        The commissioning report prints the company's name, address and logo.
      </Text>
      {mayEdit ? (
        <Stack mt="md" gap="sm">
          <Group>
            <Button
              variant="light"
              leftSection={<IconEdit size={16} aria-hidden />}
              onClick={() => setEditing(true)}
            >
              Edit details
            </Button>
          </Group>
          <CompanyLogo hasLogo={mine.company.hasLogo} />
        </Stack>
      ) : (
        <Text size="sm" mt="sm">
          Logo on reports: {mine.company.hasLogo ? 'yes' : 'none'}
        </Text>
      )}
      {editing ? <DetailsForm mine={mine} onDone={() => setEditing(false)} /> : null}
    </SectionCard>
  );
}

const detailsSchema = z.object({
  name: z.string().trim().min(1, 'Give the company a name').max(120, 'At most 120 characters'),
  address: z.string().trim().max(300, 'At most 300 characters'),
});

function DetailsForm({ mine, onDone }: { mine: MyCompany; onDone: () => void }) {
  const { configApi } = useRuntime();
  const form = useForm<z.infer<typeof detailsSchema>>({
    resolver: zodResolver(detailsSchema),
    defaultValues: { name: mine.company.name, address: mine.company.address },
  });
  const { isDirty } = form.formState;
  const save = useSave({ onSaved: onDone });
  useUnsavedWork({ id: 'company-details', kind: 'form', label: 'Company details' }, save.holdsEdits(isDirty));
  const submit = form.handleSubmit((values) =>
    save.save((signal) => saveCompanyDetails(configApi, values, signal)),
  );
  return (
    <FormDialog
      title="Company details"
      onClose={onDone}
      onSubmit={submit}
      busy={save.pending}
      error={save.error}
      errorTitle="The details were not saved"
      submitLabel="Save details"
    >
      <TextInput label="Name" required {...fieldProps(form, 'name')} />
      <Textarea label="Address" autosize minRows={2} {...fieldProps(form, 'address')} />
    </FormDialog>
  );
}

function MembersCard({ mine, myId, mayRun }: { mine: MyCompany; myId: number; mayRun: boolean }) {
  const [removing, setRemoving] = useState<CompanyMember | null>(null);
  const columns: Column<CompanyMember>[] = [
    { key: 'name', header: 'Name', text: (m) => m.name },
    { key: 'email', header: 'E-mail', text: (m) => m.email },
    {
      key: 'role',
      header: 'Role',
      text: (m) => COMPANY_ROLE_LABELS[m.role],
      render: (m) => (mayRun ? <MemberRole member={m} /> : COMPANY_ROLE_LABELS[m.role]),
    },
    { key: 'joined', header: 'Joined', text: (m) => formatDate(m.joinedAt) },
  ];
  if (mayRun)
    columns.push({
      key: 'remove',
      header: 'Remove',
      text: () => '',
      render: (m) =>
        m.userId === myId ? (
          <Text size="sm" c="dimmed">
            You
          </Text>
        ) : (
          <Button
            size="xs"
            variant="subtle"
            color="red"
            onClick={() => setRemoving(m)}
            aria-label={`Remove ${m.name}`}
          >
            Remove
          </Button>
        ),
    });
  return (
    <SectionCard title="Members">
      <DataList label="Members" columns={columns} rows={mine.members} rowKey={(m) => m.userId} />
      <Modal opened={removing !== null} onClose={() => setRemoving(null)} title="Remove member">
        {removing ? <RemoveMember member={removing} onDone={() => setRemoving(null)} /> : null}
      </Modal>
    </SectionCard>
  );
}

function MemberRole({ member }: { member: CompanyMember }) {
  const { configApi } = useRuntime();
  const save = useSave();
  return (
    <Stack gap={4}>
      <NativeSelect
        aria-label={`Company role of ${member.name}`}
        data={ROLE_CHOICES}
        value={member.role}
        disabled={save.pending}
        onChange={(event) => {
          const role = companyRoleSchema.parse(event.currentTarget.value);
          save.save((signal) => setMemberRole(configApi, member.userId, role, signal));
        }}
        size="xs"
        w={140}
      />
      <RowError error={save.error} />
    </Stack>
  );
}

function RemoveMember({ member, onDone }: { member: CompanyMember; onDone: () => void }) {
  const { configApi } = useRuntime();
  const save = useSave({
    onSaved: () => {
      notifications.show({
        color: 'teal',
        title: 'Member removed',
        message: `${member.name} no longer sees the company's sites.`,
      });
      onDone();
    },
  });
  return (
    <Stack gap="sm">
      <Text>
        {member.name} ({member.email}) loses every site of the company at once. The sites stay with the
        company.
      </Text>
      <FormFooter
        error={save.error}
        errorTitle="Not removed"
        submitLabel="Remove from the company"
        submitColor="red"
        pending={save.pending}
        onCancel={onDone}
        onSubmit={() => save.save((signal) => removeMember(configApi, member.userId, signal))}
      />
    </Stack>
  );
}

const inviteSchema = z.object({
  email: z.string().trim().min(1, 'Enter an e-mail address').email('Enter a valid e-mail address'),
  role: companyRoleSchema,
});

function InvitationsCard({ invitations }: { invitations: CompanyInvitation[] }) {
  const { configApi } = useRuntime();
  const form = useForm<z.infer<typeof inviteSchema>>({
    resolver: zodResolver(inviteSchema),
    defaultValues: { email: '', role: 'installer' },
  });
  const { isDirty } = form.formState;
  const save = useSave<string>({
    onSaved: (email) => {
      notifications.show({
        color: 'teal',
        title: 'Invitation sent',
        message: `A mail with a link is on its way to ${email}.`,
      });
      form.reset({ email: '', role: form.getValues('role') });
    },
  });
  useUnsavedWork({ id: 'company-invite', kind: 'form', label: 'Invitation' }, save.holdsEdits(isDirty));
  const submit = form.handleSubmit((values) =>
    save.save(async (signal) => {
      await inviteMember(configApi, { email: values.email.toLowerCase(), role: values.role }, signal);
      return values.email;
    }),
  );
  const columns: Column<CompanyInvitation>[] = [
    { key: 'email', header: 'E-mail', text: (i) => i.email },
    { key: 'role', header: 'Role', text: (i) => COMPANY_ROLE_LABELS[i.role] },
    { key: 'by', header: 'Invited by', text: (i) => i.invitedBy ?? '—' },
    { key: 'expires', header: 'Link works until', text: (i) => formatDate(i.expiresAt) },
    {
      key: 'withdraw',
      header: 'Withdraw',
      text: () => '',
      render: (i) => <WithdrawInvitation invitation={i} />,
    },
  ];
  return (
    <SectionCard title="Invitations">
      <form onSubmit={submit} noValidate aria-label="Invite someone">
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TextInput
            label="E-mail"
            type="email"
            required
            w={{ base: '100%', sm: 300 }}
            {...fieldProps(form, 'email')}
          />
          <NativeSelect
            label="Role"
            data={ROLE_CHOICES}
            w={{ base: '100%', sm: 160 }}
            {...form.register('role')}
          />
          <Button
            type="submit"
            mt={{ base: 0, sm: 25 }}
            loading={save.pending}
            leftSection={<IconMailForward size={16} aria-hidden />}
          >
            Send invitation
          </Button>
        </Group>
        {save.error ? (
          <Alert color="red" role="alert" title="The invitation was not sent" mt="sm">
            {save.error}
          </Alert>
        ) : null}
      </form>
      <Stack mt="md">
        {invitations.length === 0 ? (
          <Text c="dimmed">No open invitations.</Text>
        ) : (
          <DataList label="Open invitations" columns={columns} rows={invitations} rowKey={(i) => i.id} />
        )}
      </Stack>
    </SectionCard>
  );
}

function WithdrawInvitation({ invitation }: { invitation: CompanyInvitation }) {
  const { configApi } = useRuntime();
  const save = useSave();
  return (
    <Stack gap={4}>
      <Button
        size="xs"
        variant="subtle"
        color="red"
        loading={save.pending}
        aria-label={`Withdraw the invitation to ${invitation.email}`}
        onClick={() => save.save((signal) => withdrawInvitation(configApi, invitation.id, signal))}
      >
        Withdraw
      </Button>
      <RowError error={save.error} />
    </Stack>
  );
}

/** Sites an owner offers the company: its admins accept (the site becomes the company's) or decline. */
function HandoversCard({ handovers }: { handovers: SiteHandover[] }) {
  const columns: Column<SiteHandover>[] = [
    { key: 'site', header: 'Site', text: (h) => h.siteName },
    { key: 'address', header: 'Address', text: (h) => h.siteAddress },
    { key: 'from', header: 'Held by', text: (h) => h.fromCompany ?? 'No company' },
    { key: 'by', header: 'Offered by', text: (h) => `${h.requestedBy ?? '—'}, ${formatDate(h.requestedAt)}` },
    { key: 'decide', header: 'Decide', text: () => '', render: (h) => <DecideHandover handover={h} /> },
  ];
  return (
    <SectionCard title="Sites offered to the company">
      <Text size="sm" c="dimmed" mb="sm">
        Accepted, a site is the company's: its admins see it at once, and the company that held it loses it.
      </Text>
      <DataList
        label="Sites offered to the company"
        columns={columns}
        rows={handovers}
        rowKey={(h) => h.id}
      />
    </SectionCard>
  );
}

function DecideHandover({ handover }: { handover: SiteHandover }) {
  const { configApi } = useRuntime();
  const save = useSave();
  return (
    <Stack gap={4}>
      <Group gap="xs">
        <Button
          size="xs"
          loading={save.pending}
          aria-label={`Accept ${handover.siteName}`}
          onClick={() => save.save((signal) => decideHandover(configApi, handover.id, 'accept', signal))}
        >
          Accept
        </Button>
        <Button
          size="xs"
          variant="default"
          disabled={save.pending}
          aria-label={`Decline ${handover.siteName}`}
          onClick={() => save.save((signal) => decideHandover(configApi, handover.id, 'decline', signal))}
        >
          Decline
        </Button>
      </Group>
      <RowError error={save.error} />
    </Stack>
  );
}

/** The file as base64, without the `data:` prefix. */
function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });
}

/**
 * The logo on the company's reports: choose a PNG or JPEG (checked here for type and size, by the
 * server for what it holds), or take it off.
 */
function CompanyLogo({ hasLogo }: { hasLogo: boolean }) {
  const { configApi } = useRuntime();
  const save = useSave();
  const [problem, setProblem] = useState<string | null>(null);
  const choose = (file: File | null) => {
    setProblem(null);
    if (!file) return;
    const type = logoTypeSchema.safeParse(file.type);
    if (!type.success) return setProblem('Choose a PNG or JPEG image.');
    if (file.size > LOGO_MAX_BYTES)
      return setProblem(`The logo may be at most ${LOGO_MAX_BYTES / 1024} KiB.`);
    save.save(async (signal) => saveLogo(configApi, { type: type.data, data: await base64Of(file) }, signal));
  };
  return (
    <Stack gap="xs">
      <Group align="flex-end" gap="sm">
        <FileInput
          label="Logo on reports"
          description={`PNG or JPEG, at most ${LOGO_MAX_BYTES / 1024} KiB`}
          placeholder={hasLogo ? 'A logo is set: choose another' : 'Choose an image'}
          accept="image/png,image/jpeg"
          disabled={save.pending}
          onChange={choose}
          w={{ base: '100%', sm: 320 }}
          // A file field's placeholder is page text, not an attribute: it keeps 4.5:1 like the rest.
          styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
        />
        {hasLogo ? (
          <Button
            variant="subtle"
            color="red"
            loading={save.pending}
            onClick={() => save.save((signal) => removeLogo(configApi, signal))}
          >
            Remove logo
          </Button>
        ) : null}
      </Group>
      {problem || save.error ? (
        <Text size="sm" c="red" role="alert">
          {problem ?? save.error}
        </Text>
      ) : null}
    </Stack>
  );
}

/** Why a change made in a row of a list failed, under its control; nothing while there is none. */
function RowError({ error }: { error: string | null }) {
  return error ? (
    <Text size="xs" c="red" role="alert">
      {error}
    </Text>
  ) : null;
}
