import {
  Button,
  Code,
  CopyButton,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { errorMessage } from '../../../contracts/error-message.ts';
import type { sunspecConfigMachine } from '../../../machines/sunspec/sunspec-config-machine.ts';
import { buildWrites, unitOf } from '../../sunspec/sunspec-writes.ts';
import { frameHex } from '../../sunspec/write-requests.ts';
import { displayValue } from './point-format.ts';

type Actor = ActorRefFrom<typeof sunspecConfigMachine>;

/** The diff of pending changes and the write requests that make them, ready to copy. */
export function PendingChanges({ actor }: { actor: Actor }) {
  const edits = useSelector(actor, (s) => s.context.edits);
  const loaded = useSelector(actor, (s) => s.context.loaded);
  const tools = useSelector(actor, (s) => s.context.tools);
  const canApply = useSelector(actor, (s) => s.can({ type: 'sunspec.apply' }));
  const list = Object.values(edits);
  if (!loaded || !tools || list.length === 0) return null;
  const { device } = loaded;
  let writes: ReturnType<typeof buildWrites> = [];
  let problem: string | null = null;
  try {
    writes = buildWrites(device, edits, tools.crc16);
  } catch (error) {
    problem = errorMessage(error);
  }
  const frames = writes.flatMap((w) => w.requests.map((r) => frameHex(r.frame)));
  const invalid = list.filter((e) => e.error !== null).length;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="pending-title">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4" id="pending-title">
            Pending changes ({list.length})
          </Title>
          <Button
            variant="subtle"
            color="red"
            size="xs"
            onClick={() => actor.send({ type: 'sunspec.discard' })}
          >
            Discard all changes
          </Button>
        </Group>
        <Table.ScrollContainer minWidth={480}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Model</Table.Th>
                <Table.Th scope="col">Point</Table.Th>
                <Table.Th scope="col">Now</Table.Th>
                <Table.Th scope="col">New</Table.Th>
                <Table.Th scope="col">
                  <VisuallyHidden>Undo</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((edit) => {
                const model = device.models[edit.model];
                const point = model?.points.find((p) => p.path === edit.path);
                if (!model || !point) return null;
                return (
                  <Table.Tr key={`${edit.model}:${edit.path}`}>
                    <Table.Td>{model.id}</Table.Td>
                    <Table.Td ff="monospace">{edit.path}</Table.Td>
                    <Table.Td>{displayValue(point)}</Table.Td>
                    <Table.Td>
                      {edit.error ? (
                        <Text size="sm" c="red.8">
                          {edit.error}
                        </Text>
                      ) : (
                        `${displayValue(point, edit.value)}${point.def.units ? ` ${point.def.units}` : ''}`
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Button
                        size="compact-xs"
                        variant="default"
                        aria-label={`Undo the change to ${edit.path}`}
                        onClick={() =>
                          actor.send({ type: 'sunspec.revert', model: edit.model, path: edit.path })
                        }
                      >
                        Undo
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Title order={3} size="h5">
          Modbus write requests
        </Title>
        {invalid > 0 ? (
          <Text size="sm" c="red.8">
            {invalid} change{invalid === 1 ? '' : 's'} cannot be written until corrected; the requests below
            leave {invalid === 1 ? 'it' : 'them'} out.
          </Text>
        ) : null}
        {problem ? (
          <Text size="sm" c="red.8" role="alert">
            {problem}
          </Text>
        ) : null}
        <Text size="sm" c="dimmed">
          Function 16 (Write Multiple Registers) to unit {unitOf(device)}, Modbus RTU with CRC-16/MODBUS, one
          frame a line.
        </Text>
        <Stack gap="xs" aria-label="Write requests" role="list">
          {writes.flatMap((w) =>
            w.requests.map((r) => (
              <Group key={`${r.address}`} gap="xs" wrap="nowrap" align="flex-start" role="listitem">
                <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
                  <Text size="xs" c="dimmed">
                    Model {w.model.id}: {r.count} register{r.count === 1 ? '' : 's'} from {r.address}
                  </Text>
                  <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                    {frameHex(r.frame)}
                  </Code>
                </Stack>
                <CopyButton value={frameHex(r.frame)}>
                  {({ copied, copy }) => (
                    <Button
                      size="xs"
                      variant="default"
                      onClick={copy}
                      aria-label={`Copy the request for register ${r.address}`}
                    >
                      {copied ? 'Copied' : 'Copy'}
                    </Button>
                  )}
                </CopyButton>
              </Group>
            )),
          )}
        </Stack>
        <Group gap="sm">
          <CopyButton value={frames.join('\n')}>
            {({ copied, copy }) => (
              <Button size="xs" variant="default" onClick={copy} disabled={frames.length === 0}>
                {copied ? 'Copied all' : 'Copy all requests'}
              </Button>
            )}
          </CopyButton>
          {loaded.demo ? (
            <Button size="xs" onClick={() => actor.send({ type: 'sunspec.apply' })} disabled={!canApply}>
              Send to demo device
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Paper>
  );
}
