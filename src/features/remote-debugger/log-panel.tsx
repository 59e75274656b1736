import { Alert, Badge, Button, FileButton, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import type { RemoteDebuggerRef } from '../../../machines/remote-debugger/debugger-machine.ts';
import { type ExchangeOutcome, logFileText } from '../../../machines/remote-debugger/exchange-log.ts';
import { toHex } from '../../../machines/remote-debugger/hex.ts';
import { formatTime } from '../../components/format-date.ts';

/** Tints of the outcome badges; their text stays the body colour, which reads on every tint. */
const OUTCOME_COLOR: Record<ExchangeOutcome, string> = {
  answered: 'green',
  'device-error': 'orange',
  'bad-answer': 'red',
  timeout: 'red',
  offline: 'red',
  failed: 'red',
  rejected: 'gray',
};

function saveFile(text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `remote-debugger-log-${new Date().toISOString().slice(0, 19).replace(/:/g, '-')}.json`;
  link.click();
  URL.revokeObjectURL(url);
}

/** The exchanges so far, newest first, with copy, save, load and clear. */
export function LogPanel({ actor }: { actor: RemoteDebuggerRef }) {
  const log = useSelector(actor, (s) => s.context.log);
  const problem = useSelector(actor, (s) => s.context.logProblem);
  const [copied, setCopied] = useState<string | null>(null);
  const copy = () => {
    navigator.clipboard.writeText(logFileText(log)).then(
      () => setCopied('The log was copied as JSON.'),
      () => setCopied('The clipboard refused the copy: save the log as a file instead.'),
    );
  };
  const load = (file: File | null) => {
    if (!file) return;
    file.text().then(
      (text) => actor.send({ type: 'debugger.loadLog', text }),
      () => actor.send({ type: 'debugger.loadLog', text: '' }),
    );
  };
  return (
    <Stack gap="sm" component="section" aria-labelledby="debugger-log-title">
      <Title order={2} size="h4" id="debugger-log-title">
        Log
      </Title>
      <Group gap="xs">
        <Button variant="default" size="xs" onClick={copy} disabled={log.length === 0}>
          Copy as JSON
        </Button>
        <Button
          variant="default"
          size="xs"
          onClick={() => saveFile(logFileText(log))}
          disabled={log.length === 0}
        >
          Save as file
        </Button>
        <FileButton onChange={load} accept="application/json,.json">
          {(props) => (
            <Button variant="default" size="xs" {...props}>
              Load a saved log
            </Button>
          )}
        </FileButton>
        <Button
          variant="default"
          c="red.9"
          size="xs"
          onClick={() => actor.send({ type: 'debugger.clearLog' })}
          disabled={log.length === 0}
        >
          Clear
        </Button>
      </Group>
      <Text size="sm" role="status">
        {copied}
      </Text>
      {problem ? (
        <Alert
          color="red"
          role="alert"
          title="That file was not loaded"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => actor.send({ type: 'debugger.dismissLogProblem' })}
        >
          {problem}
        </Alert>
      ) : null}
      {log.length === 0 ? (
        <Text size="sm" c="dimmed">
          No exchanges yet. Commands you send, and their answers, are listed here and kept on this computer.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table aria-label="Exchanges" verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Time</Table.Th>
                <Table.Th>Device</Table.Th>
                <Table.Th>Outcome</Table.Th>
                <Table.Th>What happened</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {log.map((entry) => (
                <Table.Tr key={entry.id}>
                  <Table.Td>{formatTime(entry.at, { seconds: true })}</Table.Td>
                  <Table.Td ff="monospace">
                    {entry.serialNumber} {entry.path ? `(${entry.path})` : ''}
                  </Table.Td>
                  <Table.Td>
                    <Badge
                      color={OUTCOME_COLOR[entry.outcome]}
                      variant="light"
                      c="dark.9"
                      tt="none"
                      styles={{ root: { overflow: 'visible' }, label: { overflow: 'visible' } }}
                    >
                      {entry.outcome}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{entry.message}</Text>
                    {entry.sent ? (
                      <Text size="xs" ff="monospace" c="dimmed" title={toHex(entry.sent)}>
                        sent {toHex(entry.sent.slice(0, 8))}
                        {entry.sent.length > 8 ? ' …' : ''}
                        {entry.answer ? ` · answer ${toHex(entry.answer.slice(0, 8))}…` : ''}
                      </Text>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
