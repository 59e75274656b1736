/**
 * SMP over the device socket: one binary WebSocket message per SMP message, its first byte the
 * message kind (as binary telemetry's 0x01), then the SMP message as it is (header and CBOR body):
 *
 * ```
 * byte 0   0x02: the message kind (SMP)
 * bytes 1… one SMP message, in either direction (a request from the service, the device's answer)
 * ```
 *
 * The kind byte keeps SMP apart from telemetry: an SMP answer in the original protocol begins with
 * 0x01 itself.
 */

/** Byte 0 of an SMP message on the device socket. */
export const SMP_SOCKET_KIND = 0x02;

/** The socket message that carries one SMP message. */
export function smpSocketMessage(smp: Uint8Array): Uint8Array {
  const message = new Uint8Array(1 + smp.length);
  message[0] = SMP_SOCKET_KIND;
  message.set(smp, 1);
  return message;
}

/** The SMP message a binary socket message carries (a view, not a copy), or undefined when it carries none. */
export function readSmpSocketMessage(bytes: Uint8Array): Uint8Array | undefined {
  return bytes.length > 1 && bytes[0] === SMP_SOCKET_KIND ? bytes.subarray(1) : undefined;
}
