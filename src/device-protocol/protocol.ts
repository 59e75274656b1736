/** Opcodes every simulated (and bundled) device answers; see docs/device-protocol.md. */
export const OPCODE = {
  readConfiguration: 0x01,
  writeConfiguration: 0x02,
  readLiveValues: 0x03,
  checkPassword: 0x04,
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
} as const;
export type ErrorCodeName = keyof typeof ERROR_CODE;

/** Byte 1 of a `Check password` answer. */
export const PASSWORD_RESULT = { wrong: 0x00, correct: 0x01 } as const;

/** Byte 1 of the answer to a catalogue command (restart, reset counters, …). */
export const COMMAND_DONE = 0x00;

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
