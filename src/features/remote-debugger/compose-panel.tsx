import {
  Button,
  Group,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { CSSProperties } from 'react';
import { payloadRoom } from '../../../machines/remote-debugger/compose-frame.ts';
import type { RemoteDebuggerRef } from '../../../machines/remote-debugger/debugger-machine.ts';
import { hexByte, parseOpcode } from '../../../machines/remote-debugger/hex.ts';
import { OPCODE } from '../../device-protocol/protocol.ts';
import { HexDump } from './hex-dump.tsx';

const MONO = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

/** Choose an opcode, enter a payload, see the framed command, send it. */
export function ComposePanel({ actor }: { actor: RemoteDebuggerRef }) {
  const product = useSelector(actor, (s) => s.context.product);
  const draft = useSelector(actor, (s) => s.context.draft);
  const composed = useSelector(actor, (s) => s.context.composed);
  const sending = useSelector(actor, (s) => s.matches({ console: { ready: 'sending' } }));
  const canSend = useSelector(actor, (s) => s.can({ type: 'debugger.send' }));
  if (!product) return null;
  const commands = product.entry.commands.some((c) => c.opCode === OPCODE.readConfiguration)
    ? product.entry.commands
    : [{ name: 'Read configuration', opCode: OPCODE.readConfiguration }, ...product.entry.commands];
  const opcode = parseOpcode(draft.opcodeText);
  const chosen = commands.find((c) => c.opCode === opcode);
  const size = product.entry.write.bufferSize;
  const fields = product.config.rawData;
  return (
    <Stack gap="sm" component="section" aria-labelledby="debugger-compose-title">
      <Title order={2} size="h4" id="debugger-compose-title">
        Command
      </Title>
      <Group align="flex-end" gap="sm">
        <Select
          label="Catalogue command"
          placeholder="Typed opcode"
          data={commands.map((c) => ({
            value: String(c.opCode),
            label: `${c.name} (0x${hexByte(c.opCode)})`,
          }))}
          value={chosen ? String(chosen.opCode) : null}
          onChange={(value) =>
            value !== null && actor.send({ type: 'debugger.opcode', text: hexByte(Number(value)) })
          }
          w={300}
          maw="100%"
          allowDeselect={false}
        />
        <TextInput
          label="Opcode (hex)"
          value={draft.opcodeText}
          onChange={(e) => actor.send({ type: 'debugger.opcode', text: e.currentTarget.value })}
          error={opcode === null ? 'One byte in hex, 00 to FF' : undefined}
          w={130}
          styles={MONO}
        />
      </Group>
      <SegmentedControl
        aria-label="Payload as"
        value={draft.payloadMode}
        onChange={(mode) =>
          actor.send({ type: 'debugger.payloadMode', mode: mode === 'fields' ? 'fields' : 'hex' })
        }
        data={[
          { value: 'hex', label: 'Hex bytes' },
          { value: 'fields', label: 'Named fields' },
        ]}
        w="fit-content"
      />
      {draft.payloadMode === 'hex' ? (
        <Textarea
          label="Payload (hex)"
          description={`Bytes after the opcode, at most ${payloadRoom(size)}; e.g. 31 32 33 34`}
          value={draft.payloadHex}
          onChange={(e) => actor.send({ type: 'debugger.payloadHex', text: e.currentTarget.value })}
          autosize
          minRows={2}
          styles={MONO}
        />
      ) : (
        <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
          <legend>
            <Text size="sm">
              Payload fields of {product.entry.name} (empty is 0; values in display units)
            </Text>
          </legend>
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs" mah={320} style={{ overflowY: 'auto' }}>
            {fields.map((item) => (
              <TextInput
                key={item.name}
                label={item.unit ? `${item.name} (${item.unit})` : item.name}
                size="xs"
                inputMode="decimal"
                value={draft.fieldValues[item.name] ?? ''}
                onChange={(e) =>
                  actor.send({ type: 'debugger.field', name: item.name, value: e.currentTarget.value })
                }
              />
            ))}
          </SimpleGrid>
        </fieldset>
      )}
      <div>
        <Text fw={600} size="sm" mb={4}>
          Framed command ({size} bytes, CRC-16/MODBUS in the last two)
        </Text>
        {composed?.ok ? (
          <HexDump
            label="Framed command"
            bytes={composed.frame}
            meanings={{
              0: { field: 'opcode', value: `0x${hexByte(composed.frame[0] ?? 0)}` },
              [size - 2]: { field: 'CRC (low byte)', value: `0x${hexByte(composed.frame[size - 2] ?? 0)}` },
              [size - 1]: { field: 'CRC (high byte)', value: `0x${hexByte(composed.frame[size - 1] ?? 0)}` },
            }}
          />
        ) : (
          <Text c="red.9" size="sm" role="status">
            {composed?.message ?? 'Nothing to frame yet.'}
          </Text>
        )}
      </div>
      <Group>
        <Button
          color="teal.9"
          // Mantine lightens the darkest shade on hover, below 4.5:1 for white text: keep it dark.
          style={{ '--button-hover': 'var(--mantine-color-teal-9)' } as CSSProperties}
          onClick={() => actor.send({ type: 'debugger.send' })}
          disabled={!canSend}
          loading={sending}
        >
          Send
        </Button>
        {sending ? (
          <Button variant="default" onClick={() => actor.send({ type: 'debugger.cancel' })}>
            Cancel
          </Button>
        ) : null}
      </Group>
    </Stack>
  );
}
