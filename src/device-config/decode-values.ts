import { scaleRaw } from '../codec/scale.ts';
import type { Codec, FieldTable } from '../codec/types.ts';
import type { DeviceConfig } from './config-schema.ts';
import { type ConfigValue, runSteps } from './process-data.ts';

/** What a frame says: raw integers as stored, and display values (scaled raw + derived). */
export interface DecodedConfig {
  /** rawData name → integer exactly as in the frame. */
  raw: Record<string, number>;
  /** rawData name → raw × multiplier; otherData name → result of its steps. */
  values: Record<string, ConfigValue>;
}

const tables = new WeakMap<DeviceConfig, FieldTable>();

/**
 * The rawData descriptors of a loaded configuration as a prepared field table, in rawData order:
 * prepared on first use and kept for as long as the configuration lives, so a frame costs no
 * packing. A loaded configuration is treated as immutable.
 * @example codec.decodeFields(frame, rawFieldTable(codec, config));
 * @throws CodecError when a descriptor does not fit the 254-byte view (a loaded file never has one).
 */
export function rawFieldTable(codec: Codec, config: DeviceConfig): FieldTable {
  let table = tables.get(config);
  if (!table) {
    table = codec.prepareFields(config.rawData.map((item) => item.buffer));
    tables.set(config, table);
  }
  return table;
}

/** Scales raw integers and runs every otherData item's steps, in file order. */
function deriveValues(config: DeviceConfig, raw: Readonly<Record<string, number>>): DecodedConfig {
  const values: Record<string, ConfigValue> = {};
  for (const item of config.rawData)
    values[item.name] = scaleRaw(raw[item.name] ?? item.value, item.multiplier);
  for (const item of config.otherData) values[item.name] = runSteps(item.processData, values);
  return { raw: { ...raw }, values };
}

/**
 * Frame → values: every rawData field in ONE batch decode through the codec (over the product's
 * prepared table), × multiplier, then the otherData steps.
 * @throws CodecError 'frame-length' when the frame is shorter than the 254-byte view.
 * @example
 * const { values } = decodeConfiguration(codec, config, answerFrame);
 * values.battVoltage // 51.2
 */
export function decodeConfiguration(codec: Codec, config: DeviceConfig, frame: Uint8Array): DecodedConfig {
  const numbers = codec.decodeFields(frame, rawFieldTable(codec, config));
  const raw: Record<string, number> = {};
  config.rawData.forEach((item, i) => {
    raw[item.name] = numbers[i] ?? 0;
  });
  return deriveValues(config, raw);
}

/**
 * The factory defaults of a configuration (each rawData item's `value`), by item name.
 * @example defaultRawValues(config).battVoltage // 512 (raw; 51.2 V once scaled)
 */
export function defaultRawValues(config: DeviceConfig): Record<string, number> {
  return Object.fromEntries(config.rawData.map((item) => [item.name, item.value]));
}

/**
 * A sealed frame holding the given raw values (factory defaults when omitted).
 * @throws CodecError when the opcode or size is bad, or a raw value does not fit its field.
 * @example const frame = buildConfigFrame(codec, config, 0x81, 255);
 */
export function buildConfigFrame(
  codec: Codec,
  config: DeviceConfig,
  opcode: number,
  bufferSize: number,
  raw: Readonly<Record<string, number>> = defaultRawValues(config),
): Uint8Array {
  const frame = codec.buildFrame(opcode, bufferSize);
  const values = config.rawData.map((item) => raw[item.name] ?? item.value);
  codec.encodeFields(frame, rawFieldTable(codec, config), values);
  codec.sealFrame(frame);
  return frame;
}
