import { scaleRaw } from '../codec/scale.ts';
import type { BufferDescriptor, Codec } from '../codec/types.ts';
import type { DeviceConfig } from './config-schema.ts';
import { type ConfigValue, runSteps } from './process-data.ts';

/** What a frame says: raw integers as stored, and display values (scaled raw + derived). */
export interface DecodedConfig {
  /** rawData name → integer exactly as in the frame. */
  raw: Record<string, number>;
  /** rawData name → raw × multiplier; otherData name → result of its steps. */
  values: Record<string, ConfigValue>;
}

const descriptorCache = new WeakMap<DeviceConfig, BufferDescriptor[]>();

/** The buffer descriptors of a configuration's rawData, in rawData order (cached per config). */
export function rawDescriptors(config: DeviceConfig): BufferDescriptor[] {
  let descriptors = descriptorCache.get(config);
  if (!descriptors) {
    descriptors = config.rawData.map((item) => ({ ...item.buffer }));
    descriptorCache.set(config, descriptors);
  }
  return descriptors;
}

/** Scales raw integers and runs every otherData item's steps, in file order. */
export function deriveValues(config: DeviceConfig, raw: Readonly<Record<string, number>>): DecodedConfig {
  const values: Record<string, ConfigValue> = {};
  for (const item of config.rawData)
    values[item.name] = scaleRaw(raw[item.name] ?? item.value, item.multiplier);
  for (const item of config.otherData) values[item.name] = runSteps(item.processData, values);
  return { raw: { ...raw }, values };
}

/**
 * Frame → values: every rawData field in ONE batch decode through the codec, × multiplier,
 * then the otherData steps.
 * @throws CodecError 'frame-length' when the frame is shorter than the 254-byte view.
 * @example
 * const { values } = decodeConfiguration(codec, config, answerFrame);
 * values.battVoltage // 51.2
 */
export function decodeConfiguration(codec: Codec, config: DeviceConfig, frame: Uint8Array): DecodedConfig {
  const numbers = codec.decodeFields(frame, rawDescriptors(config));
  const raw: Record<string, number> = {};
  config.rawData.forEach((item, i) => {
    raw[item.name] = numbers[i] ?? 0;
  });
  return deriveValues(config, raw);
}

/** The factory defaults of a configuration (each rawData item's `value`). */
export function defaultRawValues(config: DeviceConfig): Record<string, number> {
  return Object.fromEntries(config.rawData.map((item) => [item.name, item.value]));
}

/**
 * A sealed frame holding the given raw values (factory defaults when omitted).
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
  codec.encodeFields(frame, rawDescriptors(config), values);
  codec.sealFrame(frame);
  return frame;
}
