import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Modal,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconAlertTriangle, IconPlus } from '@tabler/icons-react';
import { useActorRef, useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { fromPromise } from 'xstate';
import type { ApiKey, CreateApiKeyRequest } from '../../../contracts/api-keys.ts';
import {
  type ApiKeysEvent,
  apiKeysMachine,
  type KeyExpiry,
} from '../../../machines/account/api-keys-machine.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { formatDate, formatDateTime } from '../../components/format-date.ts';
import { EmptyState, PageLoading } from '../../components/page-state.tsx';
import { ScreenHeader } from '../../components/screen-header.tsx';
import { SecretShownOnce } from '../../components/secret-shown-once.tsx';
import { createApiKey, fetchApiKeys, revokeApiKey } from './api-keys-api.ts';

/** The machine of the screen, its actors calling the configuration service and the clipboard. */
function useApiKeys() {
  const { configApi } = useRuntime();
  return useActorRef(
    apiKeysMachine.provide({
      actors: {
        list: fromPromise(({ signal }) => fetchApiKeys(configApi, signal)),
        create: fromPromise(({ input, signal }: { input: CreateApiKeyRequest; signal: AbortSignal }) =>
          createApiKey(configApi, input, signal),
        ),
        revoke: fromPromise(async ({ input, signal }: { input: { id: string }; signal: AbortSignal }) => {
          await revokeApiKey(configApi, input.id, signal);
          return input.id;
        }),
        copy: fromPromise(({ input }: { input: { text: string } }) =>
          navigator.clipboard.writeText(input.text),
        ),
      },
    }),
  );
}

type KeysRef = ReturnType<typeof useApiKeys>;

/** A warning's title in the text colour: yellow on the light yellow of the alert is too faint to read. */
const WARNING_STYLES = { title: { color: 'var(--mantine-color-text)' } };

const EXPIRY_OPTIONS: { value: KeyExpiry; label: string }[] = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: 'never', label: 'No expiry' },
];

/**
 * Account → API keys: the person's keys for scripts and other systems (name, read or write,
 * created, expires, last used and from where), a dialog that makes one and shows its text once,
 * and revoking with a confirmation. Behaviour is the api-keys machine's; this only renders it.
 */
export function ApiKeysScreen() {
  const actor = useApiKeys();
  const loading = useSelector(actor, (s) => s.matches('loading'));
  const loadError = useSelector(actor, (s) => (s.matches('failed') ? s.context.loadError : null));
  const keys = useSelector(actor, (s) => s.context.keys);
  const canCreate = useSelector(actor, (s) => s.can({ type: 'keys.create' }));
  return (
    <Stack gap="md">
      <ScreenHeader
        title="API keys"
        description="Keys let a script or another system call Fleet Manager as you, with no more than your rights at the time."
        actions={
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            disabled={!canCreate}
            onClick={() => actor.send({ type: 'keys.create' })}
          >
            Create key
          </Button>
        }
      />
      {loading ? <PageLoading label="Loading your API keys…" /> : null}
      {loadError !== null ? (
        <Alert
          color="red"
          role="alert"
          title="Your API keys could not be loaded"
          icon={<IconAlertTriangle aria-hidden />}
        >
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{loadError}</Text>
            <Button variant="default" size="xs" onClick={() => actor.send({ type: 'keys.retry' })}>
              Try again
            </Button>
          </Stack>
        </Alert>
      ) : null}
      {!loading && loadError === null && keys.length === 0 ? (
        <EmptyState title="No API keys yet">
          Create one for a script or another system; send it as <Code>Authorization: Bearer fm_pat_…</Code>.
        </EmptyState>
      ) : null}
      {keys.length > 0 ? (
        <Stack gap="sm" component="ul" aria-label="Your API keys" p={0} m={0} style={{ listStyle: 'none' }}>
          {keys.map((key) => (
            <KeyItem key={key.id} apiKey={key} actor={actor} />
          ))}
        </Stack>
      ) : null}
      <CreateKeyDialog actor={actor} />
      <ShownKeyDialog actor={actor} />
      <RevokeDialog actor={actor} />
    </Stack>
  );
}

function KeyItem({ apiKey, actor }: { apiKey: ApiKey; actor: KeysRef }) {
  const canRevoke = useSelector(actor, (s) => s.can({ type: 'keys.revoke', id: apiKey.id }));
  const expired = apiKey.expiresAt !== null && Date.parse(apiKey.expiresAt) <= Date.now();
  return (
    <Paper component="li" withBorder p="sm" aria-label={apiKey.name}>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 14rem' }}>
          <Group gap="xs">
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {apiKey.name}
            </Text>
            <Badge variant="light" color={apiKey.scope === 'write' ? 'red' : 'blue'}>
              {apiKey.scope === 'write' ? 'Read and write' : 'Read only'}
            </Badge>
            {expired ? (
              <Badge variant="light" color="gray">
                Expired
              </Badge>
            ) : null}
          </Group>
          <Text size="sm" c="dimmed">
            Created {formatDate(apiKey.createdAt)} ·{' '}
            {apiKey.expiresAt === null
              ? 'Never expires'
              : `${expired ? 'Expired' : 'Expires'} ${formatDate(apiKey.expiresAt)}`}
          </Text>
          <Text size="sm" c="dimmed">
            {apiKey.lastUsedAt === null
              ? 'Never used'
              : `Last used ${formatDateTime(apiKey.lastUsedAt)} from ${apiKey.lastUsedAddress ?? 'an unknown address'}`}
          </Text>
        </Stack>
        <Button
          variant="default"
          color="red"
          size="xs"
          disabled={!canRevoke}
          aria-label={`Revoke ${apiKey.name}`}
          onClick={() => actor.send({ type: 'keys.revoke', id: apiKey.id })}
        >
          Revoke
        </Button>
      </Group>
    </Paper>
  );
}

function CreateKeyDialog({ actor }: { actor: KeysRef }) {
  const open = useSelector(actor, (s) => s.matches({ ready: 'creating' }));
  const submitting = useSelector(actor, (s) => s.matches({ ready: { creating: 'submitting' } }));
  const form = useSelector(actor, (s) => s.context.form);
  const nameError = useSelector(actor, (s) => s.context.nameError);
  const error = useSelector(actor, (s) => (s.matches({ ready: 'creating' }) ? s.context.error : null));
  const edit = (change: ApiKeysEvent & { type: 'keys.edit' }) => actor.send(change);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    actor.send({ type: 'keys.submit' });
  };
  return (
    <FormDialog
      title="Create API key"
      opened={open}
      onClose={() => actor.send({ type: 'keys.cancel' })}
      onSubmit={submit}
      busy={submitting}
      error={error}
      errorTitle="The key was not created"
      submitLabel="Create key"
    >
      <TextInput
        label="Name"
        description="What uses it, so you know which to revoke: “Energy spreadsheet”."
        required
        maxLength={80}
        data-autofocus
        value={form.name}
        error={nameError ?? undefined}
        onChange={(event) => edit({ type: 'keys.edit', form: { name: event.currentTarget.value } })}
      />
      <Stack gap={4}>
        <Text size="sm" fw={500} id="key-scope-label">
          Access
        </Text>
        <SegmentedControl
          aria-labelledby="key-scope-label"
          value={form.scope}
          onChange={(value) =>
            edit({ type: 'keys.edit', form: { scope: value === 'write' ? 'write' : 'read' } })
          }
          data={[
            { value: 'read', label: 'Read only' },
            { value: 'write', label: 'Read and write' },
          ]}
        />
      </Stack>
      <Select
        label="Expires"
        allowDeselect={false}
        data={EXPIRY_OPTIONS}
        value={form.expiry}
        onChange={(value) => edit({ type: 'keys.edit', form: { expiry: (value ?? '90') as KeyExpiry } })}
      />
      {form.expiry === 'never' ? (
        <Alert
          color="yellow"
          icon={<IconAlertTriangle aria-hidden />}
          title="A key that never expires"
          styles={WARNING_STYLES}
        >
          It works until you revoke it, even if you forget where it is kept. Prefer an expiry.
        </Alert>
      ) : null}
    </FormDialog>
  );
}

function ShownKeyDialog({ actor }: { actor: KeysRef }) {
  const created = useSelector(actor, (s) => (s.matches({ ready: 'showing' }) ? s.context.created : null));
  const copy = useSelector(actor, (s) => s.context.copy);
  const canCopy = useSelector(actor, (s) => s.can({ type: 'keys.copy' }));
  return (
    <Modal
      opened={created !== null}
      onClose={() => actor.send({ type: 'keys.done' })}
      title="Your new API key"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {created ? (
        <Stack gap="sm">
          <SecretShownOnce
            warning={
              <>
                This key will not be shown again. Keep it where you keep passwords; anyone who has it can act
                as you{created.scope === 'read' ? ' (reading only)' : ''}.
              </>
            }
            label={`Key “${created.name}”`}
            value={created.key}
            noun="key"
            note={
              created.expiresAt === null
                ? 'It never expires.'
                : `It expires ${formatDate(created.expiresAt)}.`
            }
            copy={copy}
            canCopy={canCopy}
            onCopy={() => actor.send({ type: 'keys.copy' })}
            onDone={() => actor.send({ type: 'keys.done' })}
          />
        </Stack>
      ) : null}
    </Modal>
  );
}

function RevokeDialog({ actor }: { actor: KeysRef }) {
  const revoking = useSelector(actor, (s) => s.context.revoking);
  const busy = useSelector(actor, (s) => s.matches({ ready: { confirmingRevoke: 'revoking' } }));
  const error = useSelector(actor, (s) =>
    s.matches({ ready: 'confirmingRevoke' }) ? s.context.error : null,
  );
  return (
    <Modal
      opened={revoking !== null}
      onClose={() => actor.send({ type: 'keys.cancel' })}
      title="Revoke API key"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {revoking ? (
        <Stack gap="sm">
          <Text>
            Revoke “{revoking.name}”? Every script or system using it is refused from now on. This cannot be
            undone.
          </Text>
          {error ? (
            <Alert color="red" role="alert" title="The key was not revoked">
              {error}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => actor.send({ type: 'keys.cancel' })} disabled={busy}>
              Cancel
            </Button>
            <Button color="red" loading={busy} onClick={() => actor.send({ type: 'keys.confirm' })}>
              Revoke key
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
