import { readFileSync } from 'node:fs';
import { unscale } from '../../src/codec/scale.ts';
import type { Codec } from '../../src/codec/types.ts';
import type { DeviceConfig } from '../../src/device-config/config-schema.ts';
import { buildConfigFrame, defaultRawValues } from '../../src/device-config/decode-values.ts';
import { requireDeviceConfig } from '../../src/device-config/load-config.ts';

/** The bundled configuration of a product (`hybrid5k`, `battery10`, `e1mppt40`). */
export function bundledConfig(productKey: string): DeviceConfig {
  const file = `${productKey}-to-form.json`;
  return requireDeviceConfig(file, JSON.parse(readFileSync(`public/${file}`, 'utf8')));
}

/**
 * A `Read live values` answer (`0x83`) of a product taken at `atMs`, its factory values except the
 * `values` given (display units), as a device sends it for telemetry.
 */
export function telemetryFrame(
  codec: Codec,
  config: DeviceConfig,
  atMs: number,
  values: Record<string, number> = {},
  opcode = 0x83,
): number[] {
  const raw = defaultRawValues(config);
  for (const item of config.rawData)
    if (values[item.name] !== undefined)
      raw[item.name] = unscale(values[item.name] as number, item.multiplier);
  if (config.monitoring) raw[config.monitoring.timeItem] = Math.floor(atMs / 1000);
  return [...buildConfigFrame(codec, config, opcode, 255, raw)];
}
