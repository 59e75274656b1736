import type { DeviceConfig, LayoutCol } from './config-schema.ts';
import type { ConfigValue } from './process-data.ts';
import { NOT_AVAILABLE } from './time-format.ts';

/** One cell of the live view, ready to render. */
export interface LayoutCell {
  refData?: string;
  text: string;
}

function cellText(col: LayoutCol, values: Readonly<Record<string, ConfigValue>>): string {
  if (col.refData === undefined) return String(col.value ?? '');
  const value = values[col.refData];
  let shown: string;
  if (value === undefined) shown = NOT_AVAILABLE;
  else if (typeof value === 'number' && col.round !== undefined) shown = value.toFixed(col.round);
  else shown = String(value);
  return `${col.prepend ?? ''}${shown}${col.append ?? ''}`;
}

/**
 * Layout → display text: each column shows `prepend + value rounded to round decimals + append`,
 * or its static `value` when it names no data.
 * @example layoutRows(config, values) // [[{ refData: 'pvPower', text: 'PV 3120 W' }], …]
 */
export function layoutRows(
  config: DeviceConfig,
  values: Readonly<Record<string, ConfigValue>>,
): LayoutCell[][] {
  return config.layout.rows.map((row) =>
    row.cols.map((col) => ({
      ...(col.refData ? { refData: col.refData } : {}),
      text: cellText(col, values),
    })),
  );
}
