import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Button,
  Checkbox,
  FileButton,
  Group,
  Modal,
  PasswordInput,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { ActorRefFrom } from 'xstate';
import type { ConfigTemplate, RemoteApplyResult } from '../../../../contracts/config-templates.ts';
import { errorMessage } from '../../../../contracts/error-message.ts';
import { onlineDevicesSchema } from '../../../../contracts/service-comms.ts';
import {
  type ConfigureSessionActor,
  type TemplateOnDevice,
  templateFormOf,
  templateOnDevice,
} from '../../../../machines/ble/configure-session-machine.ts';
import type { templatesMachine } from '../../../../machines/ble/templates-machine.ts';
import type { ApiClient } from '../../../api/api-client.ts';
import { applyTemplateRemotely } from '../../../api/commissioning-api.ts';
import { type Save, useSave } from '../../../app/use-save.ts';
import { fromTask, useTask } from '../../../app/use-task.ts';
import { fieldProps } from '../../../components/field-props.ts';
import { PRIMARY, READABLE_ALERT } from './readable-styles.ts';
import {
  EMPTY_REMOTE_APPLY,
  type RemoteApplyForm,
  remoteApplyFormSchema,
  remoteApplyRequest,
  writeToLabel,
} from './remote-apply-form.ts';
import { readTemplateUpload, templateFile, templateFileName } from './template-file.ts';

export type TemplatesActor = ActorRefFrom<typeof templatesMachine>;

function download(text: string, name: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Name the settings being saved as a template. */
function SaveDialog({ templates }: { templates: TemplatesActor }) {
  const draft = useSelector(templates, (s) => s.context.draft);
  const saving = useSelector(templates, (s) => s.matches('changing'));
  const error = useSelector(templates, (s) => (s.context.draft ? s.context.error : null));
  const name = useSelector(templates, (s) => s.context.name);
  const save = draft ? ({ kind: 'create', name, settings: draft } as const) : null;
  // The machine's guard is the rule: a name the service takes, and no change on its way.
  const canSave = useSelector(templates, (s) =>
    save ? s.can({ type: 'templates.change', change: save }) : false,
  );
  const count = draft ? Object.keys(draft).length : 0;
  return (
    <Modal
      closeButtonProps={{ 'aria-label': 'Close' }}
      opened={draft !== null}
      onClose={() => templates.send({ type: 'templates.cancel' })}
      title="Save as template"
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (save) templates.send({ type: 'templates.change', change: save });
        }}
      >
        <Stack gap="sm">
          <Text size="sm">
            {count} settings, as the form holds them now. The password and the clock are never part of a
            template.
          </Text>
          <TextInput
            label="Template name"
            required
            maxLength={80}
            value={name}
            onChange={(e) => templates.send({ type: 'templates.name', name: e.currentTarget.value })}
          />
          {error ? (
            <Alert styles={READABLE_ALERT} color="red" role="alert" title="The template was not saved">
              {error}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => templates.send({ type: 'templates.cancel' })}>
              Cancel
            </Button>
            <Button type="submit" loading={saving} disabled={!canSave}>
              Save template
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Two looks at a template on the device that show the same: the section is not drawn again. */
const samePreview = (a: TemplateOnDevice | null, b: TemplateOnDevice | null) =>
  a === b || (a !== null && b !== null && JSON.stringify(a) === JSON.stringify(b));

/** What a template would change on the connected device, and the verified write of it. */
function ApplyPreview({ session, template }: { session: ConfigureSessionActor; template: ConfigTemplate }) {
  const preview = useSelector(session, (s) => templateOnDevice(s, template.settings), samePreview);
  const writing = useSelector(session, (s) => s.matches({ form: 'writing' }));
  const write = { type: 'template.write', name: template.name, settings: template.settings } as const;
  // The button asks the session: its guard is the rule (link open, unlocked, no problem, a change).
  const canWrite = useSelector(session, (s) => s.can(write));
  if (!preview)
    return (
      <Text size="sm" c="gray.7">
        Connect to the device to see what “{template.name}” would change.
      </Text>
    );
  const { problems, changes, needsPassword } = preview;
  return (
    <Stack gap="xs" aria-label={`What “${template.name}” would change`} component="section">
      <Title order={4} size="h5">
        “{template.name}” on this device
      </Title>
      {problems.length > 0 ? (
        <Alert styles={READABLE_ALERT} color="red" role="alert" title="This template cannot be written here">
          Nothing will be written: {problems.map((p) => p.message).join('; ')}.
        </Alert>
      ) : changes.length === 0 ? (
        <Text size="sm">The device already holds every setting of this template.</Text>
      ) : (
        <Table striped withTableBorder aria-label={`Settings “${template.name}” changes`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Setting</Table.Th>
              <Table.Th scope="col">Now</Table.Th>
              <Table.Th scope="col">Template</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {changes.map((row) => (
              <Table.Tr key={row.field}>
                <Table.Td>{row.label}</Table.Td>
                <Table.Td>{row.current || '(empty)'}</Table.Td>
                <Table.Td fw={700}>{row.template || '(empty)'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {needsPassword ? (
        <Text size="sm" c="gray.7">
          Give the device password above to write it.
        </Text>
      ) : null}
      <Group>
        <Button color={PRIMARY} loading={writing} disabled={!canWrite} onClick={() => session.send(write)}>
          Write template
        </Button>
      </Group>
    </Stack>
  );
}

/** Asks before a template is deleted; the machine holds which one, and deletes it on Delete. */
function DeleteDialog({ templates }: { templates: TemplatesActor }) {
  const deleting = useSelector(templates, (s) => s.context.deleting);
  const change = deleting ? ({ kind: 'delete', id: deleting.id } as const) : null;
  const canDelete = useSelector(templates, (s) =>
    change ? s.can({ type: 'templates.change', change }) : false,
  );
  return (
    <Modal
      closeButtonProps={{ 'aria-label': 'Close' }}
      opened={deleting !== null}
      onClose={() => templates.send({ type: 'templates.cancel' })}
      title="Delete template"
    >
      <Stack gap="sm">
        <Text size="sm">Delete the template “{deleting?.name}”? What it wrote stays in the history.</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => templates.send({ type: 'templates.cancel' })}>
            Keep it
          </Button>
          <Button
            color="red.8"
            disabled={!canDelete}
            onClick={() => {
              if (change) templates.send({ type: 'templates.change', change });
            }}
          >
            Delete
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * The devices of a model online now, to tick. A look that fails says why, with "Try again"
 * (`onRetry`: the dialog shows a new look, which asks the service again).
 */
function OnlineDevices({
  api,
  modelId,
  chosen,
  onChange,
  error,
}: {
  api: ApiClient;
  modelId: string;
  chosen: string[];
  onChange: (serials: string[]) => void;
  /** Why the ticks cannot be written (none ticked). */
  error: string | undefined;
}) {
  const load = useMemo(
    () =>
      fromTask(async () =>
        onlineDevicesSchema
          .parse(await api('/service-comms/devices/online'))
          .devices.filter((d) => d.modelId === modelId),
      ),
    [api, modelId],
  );
  const online = useTask(load);
  if (online.status === 'active') return <Text size="sm">Looking for devices online…</Text>;
  if (online.status === 'error')
    return (
      <Alert color="red" role="alert" title="The devices online could not be listed">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{errorMessage(online.error)}</Text>
          <Button size="xs" variant="light" onClick={online.retry}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  if (online.output.length === 0) return <Text size="sm">No {modelId} of yours is online now.</Text>;
  return (
    <Checkbox.Group label="Devices" value={chosen} onChange={onChange} error={error}>
      <Stack gap={4} mt={4}>
        {online.output.map((device) => (
          <Checkbox key={device.serialNumber} value={device.serialNumber} label={device.serialNumber} />
        ))}
      </Stack>
    </Checkbox.Group>
  );
}

/** Write a template to several devices online, one at a time, and show each one's result. */
function RemoteApply({
  api,
  template,
  onClose,
}: {
  api: ApiClient;
  template: ConfigTemplate;
  onClose: () => void;
}) {
  const form = useForm<RemoteApplyForm>({
    resolver: zodResolver(remoteApplyFormSchema),
    defaultValues: EMPTY_REMOTE_APPLY,
  });
  const { errors } = form.formState;
  const ticked = form.watch('serials').length;
  // Each press of Write sends the ticks of that moment (a press while one runs sends nothing);
  // the results shown are the last press's, and changing the ticks afterwards sends nothing. The
  // results are this dialog's: the page shows nothing that the write changes. The request is not
  // aborted when the dialog closes: the service goes on writing the devices either way.
  const write = useSave<RemoteApplyResult>({ refreshes: false });
  const send = form.handleSubmit((values) =>
    write.save(() => applyTemplateRemotely(api, template.id, remoteApplyRequest(values))),
  );
  return (
    <form noValidate onSubmit={send}>
      <Stack gap="sm">
        <Text size="sm">
          Written to each device in turn over the service, checked by reading it back. Only {template.modelId}{' '}
          devices that are online now are listed.
        </Text>
        <Controller
          control={form.control}
          name="serials"
          render={({ field }) => (
            <OnlineDevices
              api={api}
              modelId={template.modelId}
              chosen={field.value}
              onChange={field.onChange}
              error={errors.serials?.message}
            />
          )}
        />
        <PasswordInput
          label="Device password"
          description="The devices are locked on every connection"
          autoComplete="off"
          {...fieldProps(form, 'password')}
        />
        <Checkbox label="Go on after a device fails" {...form.register('continueOnFailure')} />
        <RemoteResults write={write} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          <Button type="submit" loading={write.pending}>
            {writeToLabel(ticked)}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

const OUTCOME: Record<RemoteApplyResult['results'][number]['outcome'], string> = {
  written: 'Written and verified',
  already_equal: 'Already holds it',
  refused: 'Refused',
  failed: 'Failed',
  skipped: 'Not tried',
};

/** The last press of Write: under way, why nothing was written, or each device's result. */
function RemoteResults({ write }: { write: Save<RemoteApplyResult> }) {
  if (write.pending) return <Text role="status">Writing, one device at a time…</Text>;
  if (write.error)
    return (
      <Alert color="red" role="alert" title="Nothing was written">
        {write.error}
      </Alert>
    );
  if (!write.saved) return null;
  return (
    <Table withTableBorder aria-label="Result per device">
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Device</Table.Th>
          <Table.Th scope="col">Result</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {write.saved.output.results.map((result) => (
          <Table.Tr key={result.serial}>
            <Table.Td>{result.serial}</Table.Td>
            <Table.Td>
              <Text size="sm" fw={600}>
                {OUTCOME[result.outcome]}
              </Text>
              {result.reason ? <Text size="sm">{result.reason}</Text> : null}
              {result.changes.length > 0 ? (
                <Text size="sm">
                  {result.changes.map((c) => `${c.label}: ${c.oldValue} → ${c.newValue}`).join('; ')}
                </Text>
              ) : null}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * Settings templates of the device's product: the company's list; write one to the connected
 * device after seeing what it changes; rename, delete, export to a file, import from one; write
 * one to several devices online.
 */
export function TemplatesSection({
  session,
  templates,
  api,
  modelName,
}: {
  session: ConfigureSessionActor;
  templates: TemplatesActor;
  api: ApiClient;
  modelName: (modelId: string) => string;
}) {
  const product = useSelector(session, (s) => s.context.product);
  const list = useSelector(templates, (s) => s.context.templates);
  const selected = useSelector(templates, (s) => s.context.selected);
  const error = useSelector(templates, (s) => (s.context.draft ? null : s.context.error));
  const notice = useSelector(templates, (s) => s.context.notice);
  const busy = useSelector(templates, (s) => !s.matches('shown'));
  const renaming = useSelector(templates, (s) => s.context.renaming);
  const newName = useSelector(templates, (s) => s.context.name);
  const rename = renaming ? ({ kind: 'rename', id: renaming.id, name: newName } as const) : null;
  const canRename = useSelector(templates, (s) =>
    rename ? s.can({ type: 'templates.change', change: rename }) : false,
  );
  // Which template's "Write to devices online" dialog is open; what it writes is its own form's.
  const [remote, setRemote] = useState<ConfigTemplate | null>(null);
  const chosen = list?.find((t) => t.id === selected) ?? null;
  const importFile = async (file: File | null) => {
    if (!file) return;
    const form = templateFormOf(session.getSnapshot());
    const check = await readTemplateUpload(file, product.modelId, modelName, form);
    if (!check.ok) templates.send({ type: 'templates.refused', reason: check.reason });
    else
      templates.send({
        type: 'templates.change',
        change: { kind: 'create', name: check.file.name, settings: check.file.settings },
      });
  };
  return (
    <Stack gap="sm" component="section" aria-labelledby="templates-title">
      <Group justify="space-between">
        <Title order={3} size="h4" id="templates-title">
          Settings templates
        </Title>
        <FileButton onChange={importFile} accept="application/json,.json">
          {(props) => (
            <Button variant="default" size="xs" {...props} disabled={busy}>
              Import from file
            </Button>
          )}
        </FileButton>
      </Group>
      {list === null && !error ? <Text size="sm">Loading the templates…</Text> : null}
      {list?.length === 0 ? (
        <Text size="sm" c="gray.7">
          No templates of the {product.modelId} yet: save the settings as one with “Save as template”.
        </Text>
      ) : null}
      {list && list.length > 0 ? (
        <Table withTableBorder aria-label={`Templates of the ${product.modelId}`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Template</Table.Th>
              <Table.Th scope="col">Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.map((template) => (
              <Table.Tr key={template.id}>
                <Table.Td>
                  <Text size="sm" fw={600}>
                    {template.name}
                  </Text>
                  <Text size="xs" c="gray.7">
                    {Object.keys(template.settings).length} settings · {template.updatedBy}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Group gap={6}>
                    <Button
                      size="xs"
                      variant="light"
                      onClick={() => templates.send({ type: 'templates.select', id: template.id })}
                    >
                      Apply…
                    </Button>
                    <Button size="xs" variant="default" onClick={() => setRemote(template)}>
                      Apply online…
                    </Button>
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() => templates.send({ type: 'templates.rename', template })}
                    >
                      Rename
                    </Button>
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() =>
                        download(
                          JSON.stringify(templateFile(template, modelName(template.modelId)), null, 2),
                          templateFileName(template),
                        )
                      }
                    >
                      Export
                    </Button>
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() => templates.send({ type: 'templates.delete', template })}
                    >
                      Delete
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
      {error ? (
        <Alert styles={READABLE_ALERT} color="red" role="alert" title="Templates">
          {error}
        </Alert>
      ) : null}
      {notice ? (
        <Text size="sm" role="status">
          {notice}
        </Text>
      ) : null}
      {chosen ? <ApplyPreview session={session} template={chosen} /> : null}
      <SaveDialog templates={templates} />
      <DeleteDialog templates={templates} />
      <Modal
        closeButtonProps={{ 'aria-label': 'Close' }}
        opened={renaming !== null}
        onClose={() => templates.send({ type: 'templates.cancel' })}
        title="Rename template"
      >
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (rename) templates.send({ type: 'templates.change', change: rename });
          }}
        >
          <Stack gap="sm">
            <TextInput
              label="Template name"
              required
              maxLength={80}
              value={newName}
              onChange={(e) => templates.send({ type: 'templates.name', name: e.currentTarget.value })}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => templates.send({ type: 'templates.cancel' })}>
                Cancel
              </Button>
              <Button type="submit" disabled={!canRename}>
                Rename
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      <Modal
        closeButtonProps={{ 'aria-label': 'Close' }}
        opened={remote !== null}
        onClose={() => setRemote(null)}
        title={`Write “${remote?.name ?? ''}” to devices online`}
        size="lg"
      >
        {remote ? <RemoteApply api={api} template={remote} onClose={() => setRemote(null)} /> : null}
      </Modal>
    </Stack>
  );
}
