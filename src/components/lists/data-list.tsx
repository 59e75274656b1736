import { Card, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, type RefObject, useRef } from 'react';

/** One column of a list: its header, its plain text (CSV, sort, cards) and, if richer, its cell. */
export interface Column<T> {
  key: string;
  header: string;
  text: (row: T) => string;
  render?: (row: T) => ReactNode;
  /** Written to the CSV only (an id for spreadsheets and other systems), never shown on screen. */
  csvOnly?: boolean;
}

/** Above this many rows only the visible ones are rendered. */
export const VIRTUAL_THRESHOLD = 30;
const ROW_HEIGHT = 45;
const CARD_HEIGHT = 150;

interface DataListProps<T> {
  /** Names the table for screen readers, e.g. "Sites". */
  label: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
}

interface ScrollRegionProps {
  scrollRef: RefObject<HTMLDivElement | null>;
  label: string;
  virtual: boolean;
  children: ReactNode;
}

/** A long list scrolls in its own region, named and reachable by keyboard; a short one does not. */
function ScrollRegion({ scrollRef, label, virtual, children }: ScrollRegionProps) {
  if (!virtual) return <div ref={scrollRef}>{children}</div>;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard.
    <section ref={scrollRef} aria-label={label} tabIndex={0} style={{ maxHeight: '70vh', overflowY: 'auto' }}>
      {children}
    </section>
  );
}

const cellOf = <T,>(column: Column<T>, row: T) => (column.render ? column.render(row) : column.text(row));

/**
 * A list as a table on wide screens and as cards on a phone. Long pages render only the rows in
 * view (@tanstack/react-virtual) inside a scrolling region; short ones render plainly.
 */
export function DataList<T>({ label, columns: allColumns, rows, rowKey }: DataListProps<T>) {
  const columns = allColumns.filter((column) => !column.csvOnly);
  const phone = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtual = rows.length > VIRTUAL_THRESHOLD;
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => (phone ? CARD_HEIGHT : ROW_HEIGHT),
    overscan: 8,
    enabled: virtual,
  });
  const items = virtual
    ? virtualizer.getVirtualItems()
    : rows.map((_, index) => ({ index, start: 0, end: 0, key: index }));
  const padTop = virtual ? (items[0]?.start ?? 0) : 0;
  const padBottom = virtual ? virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0) : 0;

  if (phone) {
    const [first, ...rest] = columns;
    return (
      <ScrollRegion scrollRef={scrollRef} label={label} virtual={virtual}>
        <ul
          aria-label={label}
          style={{ listStyle: 'none', margin: 0, padding: 0, paddingTop: padTop, paddingBottom: padBottom }}
        >
          {items.map((item) => {
            const row = rows[item.index] as T;
            return (
              <li
                key={rowKey(row)}
                data-index={item.index}
                ref={virtual ? virtualizer.measureElement : undefined}
                style={{ paddingBottom: 8 }}
              >
                <Card withBorder padding="sm">
                  <Stack gap={4}>
                    {first ? <Text fw={600}>{cellOf(first, row)}</Text> : null}
                    {rest.map((column) => (
                      <Text key={column.key} size="sm">
                        <Text span c="dimmed" size="sm">
                          {column.header}:{' '}
                        </Text>
                        {cellOf(column, row)}
                      </Text>
                    ))}
                  </Stack>
                </Card>
              </li>
            );
          })}
        </ul>
      </ScrollRegion>
    );
  }

  return (
    <ScrollRegion scrollRef={scrollRef} label={label} virtual={virtual}>
      <Table
        striped
        highlightOnHover
        stickyHeader={virtual}
        aria-label={label}
        aria-rowcount={rows.length + 1}
      >
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column.key} scope="col">
                {column.header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {padTop > 0 ? <tr aria-hidden style={{ height: padTop }} /> : null}
          {items.map((item) => {
            const row = rows[item.index] as T;
            return (
              <Table.Tr key={rowKey(row)} aria-rowindex={item.index + 2} style={{ height: ROW_HEIGHT }}>
                {columns.map((column) => (
                  <Table.Td key={column.key}>{cellOf(column, row)}</Table.Td>
                ))}
              </Table.Tr>
            );
          })}
          {padBottom > 0 ? <tr aria-hidden style={{ height: padBottom }} /> : null}
        </Table.Tbody>
      </Table>
    </ScrollRegion>
  );
}
