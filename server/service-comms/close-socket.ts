import type WebSocket from 'ws';

/** Longest close reason a WebSocket close frame carries: 125 bytes of payload less the 2-byte code. */
export const MAX_CLOSE_REASON_BYTES = 123;

/**
 * `reason` cut to at most 123 bytes of UTF-8 on a character boundary. The reasons are the
 * service's own fixed texts; this keeps any of them (or a later edit) from making `ws` throw.
 * @example boundCloseReason('€'.repeat(50)) // 41 × '€' (123 bytes)
 */
export function boundCloseReason(reason: string): string {
  if (Buffer.byteLength(reason) <= MAX_CLOSE_REASON_BYTES) return reason;
  let bounded = '';
  let bytes = 0;
  for (const character of reason) {
    const size = Buffer.byteLength(character);
    if (bytes + size > MAX_CLOSE_REASON_BYTES) break;
    bounded += character;
    bytes += size;
  }
  return bounded;
}

/**
 * Close a device socket with a code and a fixed reason, never throwing: `ws` throws on a reason
 * over 123 bytes or a code it does not accept, and a throw in a socket's handler would stop the
 * process. A socket that cannot be closed politely is cut.
 */
export function closeSocket(socket: WebSocket, code: number, reason: string): void {
  try {
    socket.close(code, boundCloseReason(reason));
  } catch {
    socket.terminate();
  }
}
