import { Table, Text } from '@mantine/core';
import type { DecodedModel } from '../../sunspec/decode-device.ts';

/** A model without a definition: its registers as read, so nothing is hidden. */
export function RawModel({ model }: { model: DecodedModel }) {
  const body = Array.from(model.registers.subarray(2));
  return (
    <>
      <Text size="sm">
        No definition is loaded for model {model.id}; its {model.length} registers are shown as read. Add its
        definition (JSON) to decode them.
      </Text>
      <Table.ScrollContainer minWidth={320}>
        <Table striped>
          <Table.Caption>Registers of model {model.id}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Register</Table.Th>
              <Table.Th scope="col">Hex</Table.Th>
              <Table.Th scope="col">Decimal</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {body.map((value, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: registers are positional and never reorder
              <Table.Tr key={i}>
                <Table.Td>{model.address + 2 + i}</Table.Td>
                <Table.Td ff="monospace">{value.toString(16).padStart(4, '0')}</Table.Td>
                <Table.Td>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </>
  );
}
