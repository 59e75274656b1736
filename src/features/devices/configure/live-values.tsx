import { Table, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { ConfigureSessionActor } from '../../../../machines/ble/configure-session-machine.ts';
import { layoutRows } from '../../../device-config/layout-values.ts';

/** The device's live values laid out as its configuration's `layout` says (round, prepend, append). */
export function LiveValues({ session }: { session: ConfigureSessionActor }) {
  const connection = useSelector(session, (s) => s.context.connection);
  const config = useSelector(session, (s) => s.context.product.config);
  const values = useSelector(connection, (s) => s.context.config?.decoded.values);
  if (!values) return null;
  const rows = layoutRows(config, values);
  return (
    <section aria-labelledby="live-values-title">
      <Title order={3} size="h4" id="live-values-title" mb="xs">
        Live values
      </Title>
      <Table.ScrollContainer minWidth={320}>
        <Table striped withTableBorder>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.map((cell) => cell.refData ?? cell.text).join('|')}>
                {row.map((cell, c) =>
                  c === 0 && !cell.refData ? (
                    <Table.Th key={`label-${cell.text}`} scope="row">
                      {cell.text}
                    </Table.Th>
                  ) : (
                    <Table.Td key={cell.refData ?? `text-${cell.text}`} data-ref={cell.refData}>
                      {cell.text}
                    </Table.Td>
                  ),
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </section>
  );
}
