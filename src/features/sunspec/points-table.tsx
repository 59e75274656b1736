import { Badge, Group, Table, Text, Tooltip } from '@mantine/core';
import type { ActorRefFrom } from 'xstate';
import type { sunspecConfigMachine } from '../../../machines/sunspec/sunspec-config-machine.ts';
import type { DecodedModel, DecodedPoint } from '../../sunspec/decode-device.ts';
import { PointValueCell } from './point-value-cell.tsx';

type Actor = ActorRefFrom<typeof sunspecConfigMachine>;

export interface PointRow {
  model: DecodedModel;
  point: DecodedPoint;
}

function PointLabel({ point }: { point: DecodedPoint }) {
  const label = point.def.label ?? point.def.name;
  const text = (
    <div>
      <Text
        size="sm"
        fw={500}
        tabIndex={point.def.desc ? 0 : undefined}
        style={{ cursor: point.def.desc ? 'help' : undefined }}
      >
        {label}
      </Text>
      <Text size="xs" c="dimmed" ff="monospace">
        {point.path}
      </Text>
    </div>
  );
  return point.def.desc ? (
    <Tooltip
      label={point.def.desc}
      multiline
      w={280}
      withArrow
      openDelay={200}
      events={{ hover: true, focus: true, touch: true }}
    >
      {text}
    </Tooltip>
  ) : (
    text
  );
}

/** Points in a table: label (description on hover or focus), value, units, access. */
export function PointsTable({
  actor,
  rows,
  showModel,
}: {
  actor: Actor;
  rows: PointRow[];
  showModel: boolean;
}) {
  return (
    <Table.ScrollContainer minWidth={360}>
      <Table striped highlightOnHover verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            {showModel ? <Table.Th scope="col">Model</Table.Th> : null}
            <Table.Th scope="col">Point</Table.Th>
            <Table.Th scope="col">Value</Table.Th>
            <Table.Th scope="col">Units</Table.Th>
            <Table.Th scope="col" visibleFrom="sm">
              Access
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map(({ model, point }) => (
            <Table.Tr key={`${model.index}:${point.path}`}>
              {showModel ? <Table.Td>{model.id}</Table.Td> : null}
              <Table.Td>
                <PointLabel point={point} />
              </Table.Td>
              <Table.Td miw={150}>
                <PointValueCell actor={actor} model={model} point={point} />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{point.def.units ?? ''}</Text>
              </Table.Td>
              <Table.Td visibleFrom="sm">
                <Group gap={4}>
                  <Badge size="sm" variant="light" color={point.def.access === 'RW' ? 'blue' : 'gray'}>
                    {point.def.access === 'RW' ? 'read-write' : 'read-only'}
                  </Badge>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
