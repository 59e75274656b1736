import type { TelemetryCount } from '../../../contracts/monitoring.ts';
import { type Codec, CodecError } from '../../../src/codec/types.ts';
import { telemetryReader } from '../../../src/device-config/telemetry-reader.ts';
import { answerOpcode, OPCODE } from '../../../src/device-protocol/protocol.ts';
import type { TelemetryReceipt } from '../../service-comms/ack-window.ts';
import type { Product } from './product-catalogue.ts';

/** The answer opcode of `Read live values` (0x03 | 0x80): the only frame telemetry carries. */
export const TELEMETRY_OPCODE = answerOpcode(OPCODE.readLiveValues);
/** A device clock further ahead than this is not believed: the reading is stored at the time received. */
export const CLOCK_AHEAD_MS = 5 * 60_000;

/** Bits of `telemetry_raw.flags`. */
export const READING_FLAGS = {
  /** The device's clock was more than 5 minutes ahead: stored at the time received. */
  clockAhead: 1,
  /** Generated when the demo data was seeded, not sent by a device. */
  seeded: 2,
} as const;

/** A reading ready to store. Times are epoch milliseconds. */
export interface Reading {
  deviceId: number;
  serial: string;
  modelId: string;
  deviceTime: number;
  receivedAt: number;
  flags: number;
  /** Telemetry metrics (display units) and status items, by name. */
  values: Record<string, number>;
  /** Settled once the reading is stored: what acknowledges it to its device (none for seeded readings). */
  receipt?: TelemetryReceipt;
}

export type FrameResult = { ok: true; reading: Reading } | { ok: false; refused: TelemetryCount };

/** The device a frame came from, as its socket proved it. */
export interface FrameSource {
  id: number;
  serial: string;
  modelId: string;
}

/**
 * A telemetry frame → a reading, or why it is refused: the model has no telemetry in the catalogue
 * (`unknown_model`), the frame is not the model's `bufferSize` (`wrong_length`), its CRC does not
 * match (`bad_crc`), it is not a `Read live values` answer (`wrong_opcode`), or its time is before
 * `oldestMs` (`too_old`, raw readings are not kept that long). A device time more than 5 minutes
 * after `receivedAt` is replaced by `receivedAt` and flagged.
 * @example readFrame(codec, product, { id: 7, serial, modelId }, frame, Date.now(), oldest)
 */
export function readFrame(
  codec: Codec,
  product: Product | undefined,
  source: FrameSource,
  frame: Uint8Array,
  receivedAt: number,
  oldestMs: number,
): FrameResult {
  if (!product?.spec) return { ok: false, refused: 'unknown_model' };
  if (frame.length !== product.entry.write.bufferSize) return { ok: false, refused: 'wrong_length' };
  try {
    // The codec's own check: length, then CRC-16/MODBUS over all but the last two bytes.
    codec.verifyFrame(frame, product.entry.write.bufferSize);
  } catch (error) {
    if (!(error instanceof CodecError)) throw error;
    return { ok: false, refused: error.code === 'crc-mismatch' ? 'bad_crc' : 'wrong_length' };
  }
  if (frame[0] !== TELEMETRY_OPCODE) return { ok: false, refused: 'wrong_opcode' };
  const { deviceTime, values } = telemetryReader(codec, product.config, product.spec)(frame);
  let time = deviceTime * 1000;
  let flags = 0;
  if (time > receivedAt + CLOCK_AHEAD_MS) {
    time = receivedAt;
    flags |= READING_FLAGS.clockAhead;
  }
  if (time < oldestMs) return { ok: false, refused: 'too_old' };
  return {
    ok: true,
    reading: {
      deviceId: source.id,
      serial: source.serial,
      modelId: source.modelId,
      deviceTime: time,
      receivedAt,
      flags,
      values,
    },
  };
}
