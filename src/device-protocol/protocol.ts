/** Opcodes every simulated (and bundled) device answers; see docs/device-protocol.md. */
export const OPCODE = {
  readConfiguration: 0x01,
  writeConfiguration: 0x02,
  readLiveValues: 0x03,
  checkPassword: 0x04,
  /** Give the device its service-comms secret and the service's address (commissioning). */
  provision: 0x05,
} as const;

/** An answer carries the request's opcode with the high bit set: 0x01 → 0x81. */
export const ANSWER_FLAG = 0x80;

/** Opcode of an error answer; byte 1 holds an {@link ERROR_CODE}, byte 2 the rejected opcode. */
export const ERROR_OPCODE = 0xee;

export const ERROR_CODE = {
  crcMismatch: 0x01,
  frameLength: 0x02,
  unknownOpcode: 0x03,
  noCommand: 0x04,
  /** Write configuration or a catalogue command before a correct `Check password` in this connection. */
  locked: 0x05,
  /** Write configuration with a setting outside its form limits; byte 3 = the field's position. */
  outOfRange: 0x06,
  /** `Provision` whose payload is not a secret and an address of the documented form. */
  badPayload: 0x07,
} as const;
export type ErrorCodeName = keyof typeof ERROR_CODE;

/** Byte 1 of a `Check password` answer. */
export const PASSWORD_RESULT = { wrong: 0x00, correct: 0x01 } as const;

/** Byte 1 of the answer to a catalogue command (restart, reset counters, …) and to `Provision`. */
export const COMMAND_DONE = 0x00;

/** What `Provision` gives a device: its service-comms secret and where to connect with it. */
export interface Provisioning {
  secret: string;
  /** The device socket's URL, `wss://host/config/service-comms/devices/ws`. */
  address: string;
}

/** Longest secret and address a `Provision` frame carries (both fit any frame of 255 bytes). */
export const PROVISION_LIMITS = { secret: 64, address: 180 } as const;

/** Printable ASCII without spaces: what a secret (base64url) and a URL are made of. */
const PRINTABLE = /^[\x21-\x7e]+$/;

/**
 * The payload of a `Provision` frame (bytes 1 on): the secret's length and characters, then the
 * address's length and characters, ASCII.
 * @throws RangeError when either is empty, too long or not printable ASCII.
 * @example provisioningPayload({ secret: 'abc', address: 'ws://h/x' }) // [3, 97, 98, 99, 8, 119, …]
 */
export function provisioningPayload({ secret, address }: Provisioning): Uint8Array {
  for (const [name, text, limit] of [
    ['secret', secret, PROVISION_LIMITS.secret],
    ['address', address, PROVISION_LIMITS.address],
  ] as const)
    if (!PRINTABLE.test(text) || text.length > limit)
      throw new RangeError(`The ${name} must be 1 to ${limit} printable ASCII characters`);
  const bytes = [secret.length, ...asciiCodes(secret), address.length, ...asciiCodes(address)];
  return Uint8Array.from(bytes);
}

const asciiCodes = (text: string) => Array.from(text, (char) => char.charCodeAt(0));

/**
 * What a `Provision` frame carries, or null when its payload is not of that form (a length of
 * zero or past its limit or the frame, a character that is not printable ASCII).
 */
export function readProvisioning(frame: Uint8Array): Provisioning | null {
  const text = (at: number, limit: number): { value: string; next: number } | null => {
    const length = frame[at] ?? 0;
    const end = at + 1 + length;
    // The last two bytes are the CRC.
    if (length === 0 || length > limit || end > frame.length - 2) return null;
    const value = String.fromCharCode(...frame.subarray(at + 1, end));
    return PRINTABLE.test(value) ? { value, next: end } : null;
  };
  const secret = text(1, PROVISION_LIMITS.secret);
  const address = secret && text(secret.next, PROVISION_LIMITS.address);
  return secret && address ? { secret: secret.value, address: address.value } : null;
}

/**
 * The opcode a device answers a request with.
 * @example answerOpcode(OPCODE.readConfiguration) // 0x81
 */
export function answerOpcode(requestOpcode: number): number {
  return (requestOpcode | ANSWER_FLAG) & 0xff;
}

/**
 * The name of an error answer's code, or undefined when the frame is not an error answer.
 * @example errorCodeName(device.request(frameWithBadCrc)) // 'crcMismatch'
 */
export function errorCodeName(answer: Uint8Array): ErrorCodeName | undefined {
  if (answer[0] !== ERROR_OPCODE) return undefined;
  const entry = Object.entries(ERROR_CODE).find(([, code]) => code === answer[1]);
  return entry?.[0] as ErrorCodeName | undefined;
}
