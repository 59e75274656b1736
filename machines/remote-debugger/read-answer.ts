import { DeviceAnswerError } from '../../src/ble/device-commands.ts';
import { type Codec, CodecError } from '../../src/codec/types.ts';
import { decodeConfiguration } from '../../src/device-config/decode-values.ts';
import type { DeviceProduct } from '../../src/device-config/load-product.ts';
import type { ConfigValue } from '../../src/device-config/process-data.ts';
import {
  answerOpcode,
  ERROR_CODE,
  ERROR_OPCODE,
  errorCodeName,
  OPCODE,
} from '../../src/device-protocol/protocol.ts';
import { hexByte } from './hex.ts';
import { characterText, MASKED, passwordNames, textCharacters } from './text-fields.ts';

/** What one byte of a frame is: the field it belongs to and that field's value. */
export interface ByteMeaning {
  field: string;
  /** The field's value as shown (scaled, with its unit), or the byte's role. */
  value: string;
  /** A byte of the device password: shown masked, never as its character or hex. */
  secret?: true;
}

/** How an answer turned out, for the log. */
export type AnswerOutcome = 'answered' | 'device-error' | 'bad-answer';

/** An answer frame read: is it sound, what does it say, and what each byte means. */
export interface AnswerReport {
  outcome: AnswerOutcome;
  /** One line for the log. */
  message: string;
  /** The error code's name when the device answered an error (`locked`, `crcMismatch`, …). */
  errorCode: string | null;
  /** Byte index → meaning; bytes without one are padding. */
  bytes: Record<number, ByteMeaning>;
  /**
   * Decoded rawData and otherData values, when the answer carries the configuration; the device
   * password's are {@link MASKED}.
   */
  values: Record<string, ConfigValue> | null;
}

/** Answers that carry the whole configuration frame. */
const CONFIG_ANSWERS = new Set(
  [OPCODE.readConfiguration, OPCODE.writeConfiguration, OPCODE.readLiveValues].map(answerOpcode),
);

function withUnit(value: ConfigValue, unit: string | undefined): string {
  return unit ? `${value} ${unit}` : String(value);
}

function frameBytes(frame: Uint8Array): Record<number, ByteMeaning> {
  const last = frame.length - 2;
  return {
    0: { field: 'opcode', value: `0x${hexByte(frame[0] ?? 0)}` },
    [last]: { field: 'CRC (low byte)', value: `0x${hexByte(frame[last] ?? 0)}` },
    [last + 1]: { field: 'CRC (high byte)', value: `0x${hexByte(frame[last + 1] ?? 0)}` },
  };
}

function fieldBytes(product: DeviceProduct, values: Record<string, ConfigValue>, secrets: Set<string>) {
  const bytes: Record<number, ByteMeaning> = {};
  const characters = textCharacters(product);
  for (const item of product.config.rawData) {
    const character = characters.get(item.name);
    const field = character ? `${character.text}, character ${character.index + 1}` : item.name;
    // A byte of a text field says which character of which field it is, and the character; a
    // byte of the password only which character it is.
    const meaning: ByteMeaning = secrets.has(item.name)
      ? { field, value: 'hidden', secret: true }
      : character
        ? { field, value: characterText(Number(values[item.name] ?? 0)) }
        : { field, value: withUnit(values[item.name] ?? 0, item.unit) };
    for (let i = 0; i < item.buffer.length / 8; i++) bytes[item.buffer.position + i] = meaning;
  }
  return bytes;
}

function errorReport(frame: Uint8Array): AnswerReport {
  const name = errorCodeName(frame) ?? null;
  const code = frame[1] ?? 0;
  const bytes = frameBytes(frame);
  bytes[1] = { field: 'error code', value: `0x${hexByte(code)} (${name ?? 'unknown'})` };
  bytes[2] = { field: 'refused opcode', value: `0x${hexByte(frame[2] ?? 0)}` };
  if (code === ERROR_CODE.outOfRange) bytes[3] = { field: 'field position', value: String(frame[3] ?? 0) };
  const reason = new DeviceAnswerError(name ?? undefined).message;
  return {
    outcome: 'device-error',
    message: `The device answered error 0x${hexByte(code)} (${name ?? 'unknown'}): ${reason}`,
    errorCode: name,
    bytes,
    values: null,
  };
}

/**
 * Reads a device's answer to a command: checks its size and CRC with the codec, names an error
 * answer's code, and decodes the product's rawData fields when the answer carries the configuration.
 * A damaged answer is reported, never thrown.
 * @example readAnswer(codec, product, answer, sent).values?.battVoltage // 51.2
 */
export function readAnswer(
  codec: Codec,
  product: DeviceProduct,
  frame: Uint8Array,
  sent: Uint8Array,
): AnswerReport {
  const size = product.entry.write.bufferSize;
  try {
    codec.verifyFrame(frame, size);
  } catch (error) {
    if (!(error instanceof CodecError)) throw error;
    const why =
      error.code === 'crc-mismatch'
        ? 'its CRC does not match its bytes'
        : `it has ${frame.length} bytes instead of ${size}`;
    const bytes = frame.length >= 3 ? frameBytes(frame) : {};
    return {
      outcome: 'bad-answer',
      message: `The answer was damaged: ${why}.`,
      errorCode: null,
      bytes,
      values: null,
    };
  }
  if (frame[0] === ERROR_OPCODE) return errorReport(frame);
  const opcode = frame[0] ?? 0;
  const expected = answerOpcode(sent[0] ?? 0);
  if (opcode !== expected)
    return {
      outcome: 'bad-answer',
      message: `The answer's opcode 0x${hexByte(opcode)} is not the answer to 0x${hexByte(sent[0] ?? 0)} (0x${hexByte(expected)}).`,
      errorCode: null,
      bytes: frameBytes(frame),
      values: null,
    };
  if (CONFIG_ANSWERS.has(opcode)) {
    const decoded = decodeConfiguration(codec, product.config, frame).values;
    const secrets = passwordNames(product);
    const values = Object.fromEntries(
      Object.entries(decoded).map(([name, value]) => [name, secrets.has(name) ? MASKED : value]),
    );
    const bytes = { ...fieldBytes(product, decoded, secrets), ...frameBytes(frame) };
    return {
      outcome: 'answered',
      message: `Answered 0x${hexByte(opcode)} with the configuration.`,
      errorCode: null,
      bytes,
      values,
    };
  }
  const bytes = frameBytes(frame);
  bytes[1] = { field: 'result', value: `0x${hexByte(frame[1] ?? 0)}` };
  return {
    outcome: 'answered',
    message: `Answered 0x${hexByte(opcode)}, result 0x${hexByte(frame[1] ?? 0)}.`,
    errorCode: null,
    bytes,
    values: null,
  };
}
