import { MAX_FRAME_BYTES, TELEMETRY_SEQ_MAX } from '../../contracts/service-comms.ts';
import { readTelemetryMessage } from '../../src/codec/telemetry-message.ts';

/** A telemetry message as read off the socket: its frame, and its `seq` when it has one. */
export interface TelemetryInput {
  seq: number | undefined;
  frame: Uint8Array;
}

/**
 * A parsed JSON message read as `deviceTelemetrySchema` reads it (`{type: "telemetry", seq?,
 * data}`: `data` 1–512 whole numbers 0–255, `seq` a whole number 0–2^32 − 1), without building a
 * zod result for each of the frame's 255 numbers: this runs for every reading of every device.
 * Answers undefined for anything the schema refuses; `tests/server/telemetry-input.test.ts` holds
 * the two to the same answers.
 */
export function readJsonTelemetry(message: unknown): TelemetryInput | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { type, seq, data } = message as { type?: unknown; seq?: unknown; data?: unknown };
  if (type !== 'telemetry') return undefined;
  if (
    seq !== undefined &&
    !(Number.isInteger(seq) && (seq as number) >= 0 && (seq as number) <= TELEMETRY_SEQ_MAX)
  )
    return undefined;
  if (!Array.isArray(data) || data.length < 1 || data.length > MAX_FRAME_BYTES) return undefined;
  const frame = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) {
    const byte: unknown = data[i];
    if (typeof byte !== 'number' || !Number.isInteger(byte) || byte < 0 || byte > 255) return undefined;
    frame[i] = byte;
  }
  return { seq: seq as number | undefined, frame };
}

/** A binary WebSocket message read as telemetry (`src/codec/telemetry-message.ts`), or undefined. */
export function readBinaryTelemetry(bytes: Uint8Array): TelemetryInput | undefined {
  const message = readTelemetryMessage(bytes);
  if (!message || message.frame.length < 1 || message.frame.length > MAX_FRAME_BYTES) return undefined;
  return message;
}
