import { Alert, Stack, Table, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { RemoteDebuggerRef } from '../../../machines/remote-debugger/debugger-machine.ts';
import { MASKED, textCharacters } from '../../../machines/remote-debugger/text-fields.ts';
import { HexDump } from './hex-dump.tsx';

/** The last answer: what it says, its bytes with the fields laid over them, and its decoded values. */
export function AnswerPanel({ actor }: { actor: RemoteDebuggerRef }) {
  const answer = useSelector(actor, (s) => s.context.lastAnswer);
  const product = useSelector(actor, (s) => s.context.product);
  if (!answer || !product) return null;
  const { frame, report } = answer;
  const units = new Map(
    [...product.config.rawData, ...product.config.otherData].map((item) => [item.name, item.unit]),
  );
  // A text held one character code per field (the device name) is one row with its text.
  const characters = textCharacters(product);
  const texts = new Set([...characters.values()].map((character) => character.text));
  const rows = Object.entries(report.values ?? {}).filter(([name]) => !characters.has(name));
  return (
    <Stack gap="sm" component="section" aria-labelledby="debugger-answer-title">
      <Title order={2} size="h4" id="debugger-answer-title">
        Answer
      </Title>
      <Alert
        color={report.outcome === 'answered' ? 'teal' : 'red'}
        title={report.errorCode ? `Device error: ${report.errorCode}` : undefined}
        role="status"
        styles={{ message: { color: 'var(--mantine-color-text)' } }}
      >
        {report.message}
      </Alert>
      <HexDump label="Answer frame" bytes={frame} meanings={report.bytes} />
      {report.values ? (
        <Table.ScrollContainer minWidth={280} mah={360}>
          <Table striped withTableBorder aria-label="Decoded values">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Field</Table.Th>
                <Table.Th>Value</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map(([name, value]) => (
                <Table.Tr key={name}>
                  <Table.Td ff="monospace">{name}</Table.Td>
                  <Table.Td>
                    {value === MASKED
                      ? `${MASKED} (hidden)`
                      : texts.has(name)
                        ? `“${String(value)}”`
                        : String(value)}
                    {units.get(name) ? ` ${units.get(name)}` : ''}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Text size="sm" c="dimmed">
          This answer carries no configuration fields to decode.
        </Text>
      )}
    </Stack>
  );
}
