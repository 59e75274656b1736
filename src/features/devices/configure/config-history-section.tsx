import { Alert, Badge, Button, Card, Group, List, Loader, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { ConfigChange, ConfigHistoryEntry } from '../../../../contracts/config-history.ts';
import {
  type configHistoryMachine,
  HISTORY_MESSAGES,
  type WaitingRecord,
} from '../../../../machines/ble/config-history-machine.ts';
import type { ConfigureSessionActor } from '../../../../machines/ble/configure-session-machine.ts';
import { formatDateTime } from '../../../components/format-date.ts';
import { READABLE_ALERT } from './readable-styles.ts';

type HistoryActor = ActorRefFrom<typeof configHistoryMachine>;

const TRANSPORT_LABELS: Record<ConfigHistoryEntry['transport'], string> = {
  'web-bluetooth': 'Bluetooth',
  simulated: 'demo device',
  'service-comms': 'online',
};

function Changes({ changes }: { changes: ConfigChange[] }) {
  return (
    <List size="sm" spacing={2}>
      {changes.map((c) => (
        <List.Item key={c.field}>
          {c.label}: {c.oldValue || '(empty)'} → <strong>{c.newValue || '(empty)'}</strong>
        </List.Item>
      ))}
    </List>
  );
}

function Entry({ record, by }: { record: WaitingRecord | ConfigHistoryEntry; by: string | null }) {
  const when = formatDateTime(record.writtenAt);
  return (
    <li>
      <Stack gap={4} py="xs">
        <Group gap="xs" wrap="wrap">
          <Text size="sm" fw={600} component="span">
            {when}
          </Text>
          <Text size="sm" c="gray.7" component="span">
            {by ? `by ${by}, ` : ''}over {TRANSPORT_LABELS[record.transport]}
            {record.template ? `, template “${record.template}”` : ''}
          </Text>
          {by === null ? (
            <Badge color="yellow.9" variant="light">
              waiting to be sent
            </Badge>
          ) : null}
        </Group>
        <Changes changes={record.changes} />
      </Stack>
    </li>
  );
}

/**
 * The device's configuration history, newest first: what every verified write changed, by whom and
 * over which transport, at what time (12-hour); writes made without a reachable service show as
 * waiting to be sent. The service answers a page at a time; "Show older changes" adds the next.
 * Writes to the demo device are not the device's and are not listed.
 */
export function ConfigHistorySection({
  session,
  history,
}: {
  session: ConfigureSessionActor;
  history: HistoryActor;
}) {
  const onDemo = useSelector(session, (s) => s.context.via === 'demo' && !s.matches({ link: 'closed' }));
  const loading = useSelector(history, (s) => !s.matches('shown'));
  const loadingOlder = useSelector(history, (s) => s.matches('loadingOlder'));
  const hasOlder = useSelector(history, (s) => s.context.nextCursor !== null);
  const canLoadOlder = useSelector(history, (s) => s.can({ type: 'history.more' }));
  const entries = useSelector(history, (s) => s.context.entries);
  const waiting = useSelector(history, (s) => s.context.waiting);
  const error = useSelector(history, (s) => s.context.error);
  const canRefresh = useSelector(history, (s) => s.can({ type: 'history.refresh' }));
  const nothing = entries !== null && entries.length === 0 && waiting.length === 0;
  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="config-history-title">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h3" id="config-history-title">
            Configuration history
          </Title>
          <Button
            variant="default"
            size="xs"
            onClick={() => session.send({ type: 'history.refresh' })}
            disabled={!canRefresh}
          >
            Refresh
          </Button>
        </Group>
        <div aria-live="polite">
          {loading ? <Loader size="sm" role="status" aria-label="Loading the configuration history" /> : null}
        </div>
        {error ? (
          <Alert styles={READABLE_ALERT} color="red" role="alert" title={HISTORY_MESSAGES.unreachable}>
            {error}
          </Alert>
        ) : null}
        {onDemo ? (
          <Text size="sm" c="gray.7">
            You are connected to the demo device: what you write to it is not recorded here.
          </Text>
        ) : null}
        {nothing ? (
          <Text c="gray.7">No configuration change has been recorded for this device yet.</Text>
        ) : null}
        {waiting.length + (entries?.length ?? 0) > 0 ? (
          <ol
            aria-label="Configuration changes, newest first"
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
          >
            {waiting.map((w) => (
              <Entry key={w.id} record={w} by={null} />
            ))}
            {(entries ?? []).map((e) => (
              <Entry key={e.id} record={e} by={e.userEmail} />
            ))}
          </ol>
        ) : null}
        {hasOlder ? (
          <Group>
            <Button
              variant="default"
              size="xs"
              onClick={() => session.send({ type: 'history.more' })}
              disabled={!canLoadOlder}
              loading={loadingOlder}
            >
              Show older changes
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Card>
  );
}
