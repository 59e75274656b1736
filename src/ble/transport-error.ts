/**
 * Why a Bluetooth operation failed. Machines branch on the kind; people read the message.
 * - `unsupported`: the browser has no Web Bluetooth at all.
 * - `unavailable`: Bluetooth is off, missing or blocked on this computer.
 * - `out-of-range`: the device did not answer the connection.
 * - `missing-service`: the device lacks the write definition's service or characteristic.
 * - `transient`: a GATT operation collided with another one; worth one more try.
 * - `disconnected`: the link is down (dropped, or closed by us).
 * - `frame-too-long`: a frame over the 512 bytes a characteristic write allows.
 * - `device-error`: the device answered with an error code.
 * - `bad-answer`: the answer was damaged (CRC or length) or not the answer to the command sent.
 * - `unknown-device`: the browser no longer knows a device chosen before.
 */
export type TransportErrorKind =
  | 'unsupported'
  | 'unavailable'
  | 'out-of-range'
  | 'missing-service'
  | 'transient'
  | 'disconnected'
  | 'frame-too-long'
  | 'device-error'
  | 'bad-answer'
  | 'unknown-device';

/** A transport failure: a `kind` to branch on, a message a person understands, and the cause. */
export class TransportError extends Error {
  readonly kind: TransportErrorKind;

  constructor(kind: TransportErrorKind, message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = 'TransportError';
    this.kind = kind;
  }
}

/** A characteristic write carries at most this many bytes (Bluetooth Core, ATT attribute value). */
export const MAX_WRITE_BYTES = 512;

/** Messages shared by both transports, so that a person reads the same words for the same failure. */
export const TRANSPORT_MESSAGES = {
  unsupported:
    'This browser cannot use Bluetooth. Open Fleet Manager in Chrome, Edge or Opera on a computer or an Android phone, or try the demo device.',
  unavailable: 'Bluetooth is off or not allowed on this computer. Switch it on, allow it, and try again.',
  outOfRange: 'The device did not answer. Move closer, check that it is switched on, and try again.',
  missingService:
    'This device does not offer the configuration service of its model. Check that you chose the right device.',
  disconnected: 'The connection to the device was lost.',
  unknownDevice: 'This browser no longer knows the device. Choose it again.',
  frameTooLong: (length: number) =>
    `A frame of ${length} bytes is longer than the ${MAX_WRITE_BYTES} bytes a Bluetooth write allows.`,
} as const;

/** Refuses a frame that no characteristic write could carry. */
export function checkFrameLength(frame: Uint8Array): void {
  if (frame.length > MAX_WRITE_BYTES)
    throw new TransportError('frame-too-long', TRANSPORT_MESSAGES.frameTooLong(frame.length));
}

/** The kind of any error, `undefined` when it is not a transport error. */
export function transportErrorKind(error: unknown): TransportErrorKind | undefined {
  return error instanceof TransportError ? error.kind : undefined;
}
