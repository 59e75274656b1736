/**
 * The binary form of a device's telemetry message on the device socket (docs/api.md, "Binary
 * telemetry"): instead of JSON numbers, one binary WebSocket message of a 5-byte header and the
 * frame as it is:
 *
 * ```
 * byte 0      0x01: the message kind (telemetry; other values are reserved)
 * bytes 1–4   seq: unsigned 32-bit, big-endian (network order)
 * bytes 5…    the `Read live values` answer frame, bufferSize bytes, exactly as in the JSON form
 * ```
 */

/** Byte 0 of a binary telemetry message. */
export const TELEMETRY_MESSAGE_KIND = 0x01;
/** Bytes before the frame. */
export const TELEMETRY_HEADER_BYTES = 5;

/**
 * The binary message of a frame and its sequence number.
 * @example telemetryMessage(7, frame) // 01 00 00 00 07, then the frame's bytes
 * @throws RangeError when `seq` is not a whole number from 0 to 2^32 − 1
 */
export function telemetryMessage(seq: number, frame: Uint8Array): Uint8Array {
  if (!Number.isInteger(seq) || seq < 0 || seq > 0xffff_ffff)
    throw new RangeError(`seq ${seq} is not a whole number from 0 to 4294967295`);
  const message = new Uint8Array(TELEMETRY_HEADER_BYTES + frame.length);
  message[0] = TELEMETRY_MESSAGE_KIND;
  new DataView(message.buffer).setUint32(1, seq, false);
  message.set(frame, TELEMETRY_HEADER_BYTES);
  return message;
}

/**
 * A binary message read as telemetry: its sequence number and its frame (a view of the same
 * bytes, not a copy); undefined when it is not one (shorter than the header, or another kind).
 * The frame itself is checked by whoever reads it (length, CRC, opcode).
 * @example readTelemetryMessage(bytes) // { seq: 7, frame: Uint8Array(255) }
 */
export function readTelemetryMessage(bytes: Uint8Array): { seq: number; frame: Uint8Array } | undefined {
  if (bytes.length < TELEMETRY_HEADER_BYTES || bytes[0] !== TELEMETRY_MESSAGE_KIND) return undefined;
  const seq = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(1, false);
  return { seq, frame: bytes.subarray(TELEMETRY_HEADER_BYTES) };
}
