import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Code,
  Group,
  Modal,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconAlertTriangle, IconPlus } from '@tabler/icons-react';
import { useActorRef, useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { fromPromise } from 'xstate';
import {
  type CreateWebhookRequest,
  WEBHOOK_EVENTS,
  type Webhook,
  type WebhookDelivery,
  type WebhookEventType,
} from '../../../contracts/webhooks.ts';
import { webhooksMachine } from '../../../machines/account/webhooks-machine.ts';
import { fetchSiteChoices, SITE_CHOICES } from '../../api/site-choices-api.ts';
import { requireCurrentUser } from '../../app/current-user.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { FormFooter } from '../../components/form-footer.tsx';
import { formatDate, formatDateTime } from '../../components/format-date.ts';
import { EmptyState, PageLoading } from '../../components/page-state.tsx';
import { ScreenHeader } from '../../components/screen-header.tsx';
import { SecretShownOnce } from '../../components/secret-shown-once.tsx';
import {
  createWebhook,
  deleteWebhook,
  fetchDeliveries,
  fetchWebhooks,
  resendDelivery,
  switchWebhook,
  testWebhook,
} from './webhooks-api.ts';

/** The machine of the screen, its actors calling the configuration service and the clipboard. */
function useWebhooks() {
  const runtime = useRuntime();
  const { configApi } = runtime;
  return useActorRef(
    webhooksMachine.provide({
      actors: {
        list: fromPromise(({ signal }) => fetchWebhooks(configApi, signal)),
        sites: fromPromise(({ signal }) =>
          fetchSiteChoices(configApi, requireCurrentUser(runtime).id, signal),
        ),
        create: fromPromise(({ input, signal }: { input: CreateWebhookRequest; signal: AbortSignal }) =>
          createWebhook(configApi, input, signal),
        ),
        update: fromPromise(
          ({ input, signal }: { input: { id: string; disabled: boolean }; signal: AbortSignal }) =>
            switchWebhook(configApi, input.id, input.disabled, signal),
        ),
        remove: fromPromise(async ({ input, signal }: { input: { id: string }; signal: AbortSignal }) => {
          await deleteWebhook(configApi, input.id, signal);
          return input.id;
        }),
        deliveries: fromPromise(({ input, signal }: { input: { id: string }; signal: AbortSignal }) =>
          fetchDeliveries(configApi, input.id, signal),
        ),
        test: fromPromise(({ input, signal }: { input: { id: string }; signal: AbortSignal }) =>
          testWebhook(configApi, input.id, signal),
        ),
        resend: fromPromise(({ input, signal }: { input: { deliveryId: number }; signal: AbortSignal }) =>
          resendDelivery(configApi, input.deliveryId, signal),
        ),
        copy: fromPromise(({ input }: { input: { text: string } }) =>
          navigator.clipboard.writeText(input.text),
        ),
      },
    }),
  );
}

type HooksRef = ReturnType<typeof useWebhooks>;

/** Each event as a person reads it in the picker. */
const EVENT_LABELS: Record<WebhookEventType, string> = {
  'alarm.raised': 'An alarm is raised',
  'alarm.acknowledged': 'An alarm is acknowledged',
  'alarm.cleared': 'An alarm clears',
  'device.online': 'A device is heard from again',
  'device.offline': 'A device goes silent',
  'device.installed': 'A device is put on a site',
  'device.removed': 'A device is taken off a site',
  'configuration.written': "A device's settings are written",
};

const DELIVERY_STATUS: Record<WebhookDelivery['status'], { label: string; color: string }> = {
  pending: { label: 'Waiting to try again', color: 'yellow' },
  sending: { label: 'Sending', color: 'blue' },
  delivered: { label: 'Delivered', color: 'teal' },
  failed: { label: 'Failed', color: 'red' },
};

/**
 * Account → Webhooks: the person's webhooks (address, events, switched on or off, failing since),
 * a dialog that adds one with an event picker and shows its signing secret once, switching one off
 * and on, deleting after a confirmation, and its delivery log (each try's status, time and
 * answer), where a test event is sent and a delivery sent again. Behaviour is the webhooks
 * machine's; this only renders it.
 */
export function WebhooksScreen() {
  const actor = useWebhooks();
  const loading = useSelector(actor, (s) => s.matches('loading'));
  const loadError = useSelector(actor, (s) => (s.matches('failed') ? s.context.loadError : null));
  const webhooks = useSelector(actor, (s) => s.context.webhooks);
  const canCreate = useSelector(actor, (s) => s.can({ type: 'hooks.create' }));
  const error = useSelector(actor, (s) => (s.matches({ ready: 'idle' }) ? s.context.error : null));
  return (
    <Stack gap="md">
      <ScreenHeader
        title="Webhooks"
        description="Webhooks tell another system what happens on your sites: Fleet Manager sends each event to its address, signed so it can tell the event is ours."
        actions={
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            disabled={!canCreate}
            onClick={() => actor.send({ type: 'hooks.create' })}
          >
            Add webhook
          </Button>
        }
      />
      {loading ? <PageLoading label="Loading your webhooks…" /> : null}
      {loadError !== null ? (
        <Alert
          color="red"
          role="alert"
          title="Your webhooks could not be loaded"
          icon={<IconAlertTriangle aria-hidden />}
        >
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{loadError}</Text>
            <Button variant="default" size="xs" onClick={() => actor.send({ type: 'hooks.retry' })}>
              Try again
            </Button>
          </Stack>
        </Alert>
      ) : null}
      {error ? (
        <Alert color="red" role="alert" title="The webhook was not changed">
          {error}
        </Alert>
      ) : null}
      {!loading && loadError === null && webhooks.length === 0 ? (
        <EmptyState title="No webhooks yet">
          Add one to send alarms and device changes to a ticketing system, a CRM or a script of your own. Each
          event is a POST of <Code>{'{type, timestamp, data}'}</Code>, signed per Standard Webhooks.
        </EmptyState>
      ) : null}
      {webhooks.length > 0 ? (
        <Stack gap="sm" component="ul" aria-label="Your webhooks" p={0} m={0} style={{ listStyle: 'none' }}>
          {webhooks.map((hook) => (
            <WebhookItem key={hook.id} hook={hook} actor={actor} />
          ))}
        </Stack>
      ) : null}
      <AddDialog actor={actor} />
      <SecretDialog actor={actor} />
      <DeleteDialog actor={actor} />
      <DeliveriesDialog actor={actor} />
    </Stack>
  );
}

function WebhookItem({ hook, actor }: { hook: Webhook; actor: HooksRef }) {
  const canOpen = useSelector(actor, (s) => s.can({ type: 'hooks.open', id: hook.id }));
  const canToggle = useSelector(actor, (s) => s.can({ type: 'hooks.toggle', id: hook.id }));
  const canDelete = useSelector(actor, (s) => s.can({ type: 'hooks.delete', id: hook.id }));
  const switching = useSelector(actor, (s) => s.matches({ ready: 'switching' }));
  const off = hook.disabledAt !== null;
  return (
    <Paper component="li" withBorder p="sm" aria-label={hook.url}>
      <Stack gap={6}>
        <Group gap="xs" wrap="wrap">
          <Text fw={600} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
            {hook.url}
          </Text>
          {off ? (
            <Badge variant="light" color="gray">
              Off
            </Badge>
          ) : hook.failingSince !== null ? (
            <Badge variant="light" color="red">
              Failing
            </Badge>
          ) : (
            <Badge variant="light" color="teal">
              On
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          {hook.events.map((event) => EVENT_LABELS[event]).join(' · ')}
        </Text>
        <Text size="sm" c="dimmed">
          Added {formatDate(hook.createdAt)}
          {hook.siteId !== null
            ? ` · ${hook.siteName ?? `site ${hook.siteId}`} only`
            : ' · every site you see'}
          {off && hook.disabledReason ? ` · ${hook.disabledReason}` : ''}
          {!off && hook.failingSince !== null ? ` · failing since ${formatDateTime(hook.failingSince)}` : ''}
        </Text>
        <Group gap="xs" wrap="wrap">
          <Button
            variant="default"
            size="xs"
            disabled={!canOpen}
            aria-label={`Deliveries of ${hook.url}`}
            onClick={() => actor.send({ type: 'hooks.open', id: hook.id })}
          >
            Deliveries
          </Button>
          <Button
            variant="default"
            size="xs"
            disabled={!canToggle || switching}
            aria-label={`${off ? 'Switch on' : 'Switch off'} ${hook.url}`}
            onClick={() => actor.send({ type: 'hooks.toggle', id: hook.id })}
          >
            {off ? 'Switch on' : 'Switch off'}
          </Button>
          <Button
            variant="default"
            color="red"
            size="xs"
            disabled={!canDelete}
            aria-label={`Delete ${hook.url}`}
            onClick={() => actor.send({ type: 'hooks.delete', id: hook.id })}
          >
            Delete
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function AddDialog({ actor }: { actor: HooksRef }) {
  const open = useSelector(actor, (s) => s.matches({ ready: 'creating' }));
  const submitting = useSelector(actor, (s) => s.matches({ ready: { creating: 'submitting' } }));
  const form = useSelector(actor, (s) => s.context.form);
  const urlError = useSelector(actor, (s) => s.context.urlError);
  const eventsError = useSelector(actor, (s) => s.context.eventsError);
  const error = useSelector(actor, (s) => (s.matches({ ready: 'creating' }) ? s.context.error : null));
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    actor.send({ type: 'hooks.submit' });
  };
  return (
    <FormDialog
      title="Add webhook"
      opened={open}
      onClose={() => actor.send({ type: 'hooks.cancel' })}
      onSubmit={submit}
      busy={submitting}
      error={error}
      errorTitle="The webhook was not added"
      submitLabel="Add webhook"
    >
      <TextInput
        label="Address"
        description="Where each event is POSTed: https://…"
        placeholder="https://example.com/hooks/fleet"
        required
        type="url"
        maxLength={2000}
        data-autofocus
        value={form.url}
        error={urlError ?? undefined}
        onChange={(event) => actor.send({ type: 'hooks.edit', form: { url: event.currentTarget.value } })}
      />
      <SitePicker actor={actor} />
      <Checkbox.Group
        label="Events"
        description="Events of the sites you see when they happen."
        required
        value={form.events}
        error={eventsError ?? undefined}
        onChange={(value) =>
          actor.send({
            type: 'hooks.edit',
            form: { events: WEBHOOK_EVENTS.filter((event) => value.includes(event)) },
          })
        }
      >
        <Stack gap={6} mt={6}>
          {WEBHOOK_EVENTS.map((event) => (
            <Checkbox key={event} value={event} label={EVENT_LABELS[event]} description={event} />
          ))}
        </Stack>
      </Checkbox.Group>
    </FormDialog>
  );
}

/** The value of "every site" in the site picker (a site's value is its id). */
const EVERY_SITE = 'every';

/**
 * Which sites' events the webhook gets: every site the person sees (until the sites are read, or
 * when they cannot be), or one of them.
 */
function SitePicker({ actor }: { actor: HooksRef }) {
  const choices = useSelector(actor, (s) => s.context.siteChoices);
  const sitesError = useSelector(actor, (s) => s.context.sitesError);
  const siteId = useSelector(actor, (s) => s.context.form.siteId);
  const data = [
    { value: EVERY_SITE, label: 'Every site you see' },
    ...(choices?.sites ?? []).map((site) => ({ value: String(site.id), label: site.name })),
  ];
  const description =
    sitesError !== null
      ? `Your sites could not be read (${sitesError}): the webhook gets every site's events.`
      : choices === null
        ? 'Reading your sites…'
        : choices.total > SITE_CHOICES
          ? `Every site you see, or one of the first ${SITE_CHOICES} of your ${choices.total} sites (A–Z).`
          : 'Every site you see, now and later, or one of them.';
  return (
    <Select
      label="Sites"
      description={description}
      data={data}
      value={siteId === null ? EVERY_SITE : String(siteId)}
      searchable
      allowDeselect={false}
      nothingFoundMessage="No site of yours has that name"
      disabled={choices === null || sitesError !== null}
      onChange={(value) =>
        actor.send({
          type: 'hooks.edit',
          form: { siteId: value === null || value === EVERY_SITE ? null : Number(value) },
        })
      }
    />
  );
}

function SecretDialog({ actor }: { actor: HooksRef }) {
  const created = useSelector(actor, (s) => (s.matches({ ready: 'showing' }) ? s.context.created : null));
  const copy = useSelector(actor, (s) => s.context.copy);
  const canCopy = useSelector(actor, (s) => s.can({ type: 'hooks.copy' }));
  return (
    <Modal
      opened={created !== null}
      onClose={() => actor.send({ type: 'hooks.done' })}
      title="Your webhook's signing secret"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {created ? (
        <Stack gap="sm">
          <SecretShownOnce
            warning={
              <>
                This secret will not be shown again. The receiving system checks each event's{' '}
                <Code>webhook-signature</Code> with it (any Standard Webhooks library does).
              </>
            }
            label={`Secret of ${created.url}`}
            value={created.secret}
            noun="secret"
            copy={copy}
            canCopy={canCopy}
            onCopy={() => actor.send({ type: 'hooks.copy' })}
            onDone={() => actor.send({ type: 'hooks.done' })}
          />
        </Stack>
      ) : null}
    </Modal>
  );
}

function DeleteDialog({ actor }: { actor: HooksRef }) {
  const deleting = useSelector(actor, (s) => s.context.deleting);
  const busy = useSelector(actor, (s) => s.matches({ ready: { confirmingDelete: 'deleting' } }));
  const error = useSelector(actor, (s) =>
    s.matches({ ready: 'confirmingDelete' }) ? s.context.error : null,
  );
  return (
    <Modal
      opened={deleting !== null}
      onClose={() => actor.send({ type: 'hooks.cancel' })}
      title="Delete webhook"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {deleting ? (
        <Stack gap="sm">
          <Text style={{ overflowWrap: 'anywhere' }}>
            Delete the webhook to {deleting.url}? No more events are sent to it, and its delivery log goes
            with it.
          </Text>
          <FormFooter
            error={error}
            errorTitle="The webhook was not deleted"
            submitLabel="Delete webhook"
            submitColor="red"
            pending={busy}
            onCancel={() => actor.send({ type: 'hooks.cancel' })}
            cancelDisabled={busy}
            onSubmit={() => actor.send({ type: 'hooks.confirm' })}
          />
        </Stack>
      ) : null}
    </Modal>
  );
}

function DeliveriesDialog({ actor }: { actor: HooksRef }) {
  const viewing = useSelector(actor, (s) => s.context.viewing);
  const reading = useSelector(actor, (s) => s.matches({ ready: { log: 'reading' } }));
  const testing = useSelector(actor, (s) => s.matches({ ready: { log: 'testing' } }));
  const deliveries = useSelector(actor, (s) => s.context.deliveries);
  const logError = useSelector(actor, (s) => s.context.logError);
  const canTest = useSelector(actor, (s) => s.can({ type: 'hooks.test' }));
  const canRefresh = useSelector(actor, (s) => s.can({ type: 'hooks.refresh' }));
  return (
    <Modal
      opened={viewing !== null}
      onClose={() => actor.send({ type: 'hooks.close' })}
      title="Deliveries"
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {viewing ? (
        <Stack gap="sm">
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            The newest 50 events sent to {viewing.url}, each with its tries.
          </Text>
          <Group gap="xs">
            <Button
              size="xs"
              loading={testing}
              disabled={!canTest}
              onClick={() => actor.send({ type: 'hooks.test' })}
            >
              Send test event
            </Button>
            <Button
              size="xs"
              variant="default"
              loading={reading}
              disabled={!canRefresh}
              onClick={() => actor.send({ type: 'hooks.refresh' })}
            >
              Refresh
            </Button>
          </Group>
          {logError ? (
            <Alert color="red" role="alert" title="That did not work">
              {logError}
            </Alert>
          ) : null}
          {!reading && deliveries.length === 0 && !logError ? (
            <Text size="sm">Nothing was sent yet. Send a test event to try the address.</Text>
          ) : null}
          <Stack gap="xs" component="ul" aria-label="Deliveries" p={0} m={0} style={{ listStyle: 'none' }}>
            {deliveries.map((delivery) => (
              <DeliveryItem key={delivery.id} delivery={delivery} actor={actor} />
            ))}
          </Stack>
        </Stack>
      ) : null}
    </Modal>
  );
}

function DeliveryItem({ delivery, actor }: { delivery: WebhookDelivery; actor: HooksRef }) {
  const canResend = useSelector(actor, (s) => s.can({ type: 'hooks.resend', deliveryId: delivery.id }));
  const resending = useSelector(actor, (s) => s.matches({ ready: { log: 'resending' } }));
  const status = DELIVERY_STATUS[delivery.status];
  return (
    <Paper component="li" withBorder p="xs" aria-label={`${delivery.type} ${status.label}`}>
      <Stack gap={4}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs">
            <Code>{delivery.type}</Code>
            <Badge variant="light" color={status.color}>
              {status.label}
            </Badge>
          </Group>
          <Button
            size="compact-xs"
            variant="default"
            disabled={!canResend || resending}
            onClick={() => actor.send({ type: 'hooks.resend', deliveryId: delivery.id })}
          >
            Send again
          </Button>
        </Group>
        <Text size="xs" c="dimmed">
          {formatDateTime(delivery.createdAt)} · <Code>{delivery.webhookId}</Code>
          {delivery.nextAttemptAt ? ` · next try ${formatDateTime(delivery.nextAttemptAt)}` : ''}
        </Text>
        {delivery.attempts.length > 0 ? (
          <Stack gap={2} component="ol" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Tries">
            {delivery.attempts.map((attempt) => (
              <Text
                key={`${attempt.at}/${attempt.durationMs}`}
                size="xs"
                component="li"
                style={{ overflowWrap: 'anywhere' }}
              >
                {formatDateTime(attempt.at)} ·{' '}
                {attempt.status !== null
                  ? `HTTP ${attempt.status}`
                  : `no answer: ${attempt.error ?? 'unknown'}`}{' '}
                · {attempt.durationMs} ms
                {attempt.response ? ` · “${attempt.response.slice(0, 120)}”` : ''}
              </Text>
            ))}
          </Stack>
        ) : (
          <Text size="xs">Not tried yet.</Text>
        )}
      </Stack>
    </Paper>
  );
}
