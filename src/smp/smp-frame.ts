import { type CborMap, decodeBody, encodeBody } from './smp-cbor.ts';
import type { SmpOp } from './smp-codes.ts';

/** Bytes of the header before every SMP body. */
export const SMP_HEADER_SIZE = 8;

/** The 8-byte header: op, flags, body length, group, sequence, command id (multi-byte fields big-endian). */
export interface SmpHeader {
  op: SmpOp;
  /** 0 for the original protocol, 1 for SMP version 2. */
  version: number;
  flags: number;
  length: number;
  group: number;
  sequence: number;
  command: number;
}

export interface SmpMessage {
  header: SmpHeader;
  body: CborMap;
}

/** Bytes that are not one SMP message; the message says what is wrong. */
export class SmpFrameError extends Error {
  override name = 'SmpFrameError';
}

/**
 * One SMP message: the header, then the CBOR body.
 * @example encodeMessage({ op: 0, version: 1, group: 1, sequence: 7, command: 0 }, {})
 *   // 08 00 00 01 00 01 07 00 a0
 */
export function encodeMessage(
  header: Omit<SmpHeader, 'length' | 'flags'> & { flags?: number },
  body: Record<string, unknown>,
): Uint8Array {
  const cbor = encodeBody(body);
  if (cbor.length > 0xffff) throw new SmpFrameError('an SMP body holds at most 65535 bytes');
  const out = new Uint8Array(SMP_HEADER_SIZE + cbor.length);
  const view = new DataView(out.buffer);
  view.setUint8(0, ((header.version & 0b11) << 3) | (header.op & 0b111));
  view.setUint8(1, header.flags ?? 0);
  view.setUint16(2, cbor.length);
  view.setUint16(4, header.group);
  view.setUint8(6, header.sequence & 0xff);
  view.setUint8(7, header.command);
  out.set(cbor, SMP_HEADER_SIZE);
  return out;
}

/** The header of the bytes' first message. @throws SmpFrameError when fewer than 8 bytes. */
export function readHeader(bytes: Uint8Array): SmpHeader {
  if (bytes.length < SMP_HEADER_SIZE)
    throw new SmpFrameError(`an SMP header has ${SMP_HEADER_SIZE} bytes, not ${bytes.length}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const first = view.getUint8(0);
  return {
    op: (first & 0b111) as SmpOp,
    version: (first >> 3) & 0b11,
    flags: view.getUint8(1),
    length: view.getUint16(2),
    group: view.getUint16(4),
    sequence: view.getUint8(6),
    command: view.getUint8(7),
  };
}

/**
 * Reads one whole SMP message.
 * @throws SmpFrameError when the length disagrees with the bytes, or the body is not a CBOR map.
 */
export function decodeMessage(bytes: Uint8Array): SmpMessage {
  const header = readHeader(bytes);
  if (bytes.length !== SMP_HEADER_SIZE + header.length)
    throw new SmpFrameError(
      `the header says ${header.length} body bytes, the message has ${bytes.length - SMP_HEADER_SIZE}`,
    );
  try {
    return { header, body: decodeBody(bytes.subarray(SMP_HEADER_SIZE)) };
  } catch (cause) {
    throw new SmpFrameError(`the body is not a CBOR map (${(cause as Error).message})`, { cause });
  }
}

/**
 * Joins the pieces a link delivers (a message larger than one notification or write comes in
 * several) into whole messages, by the header's length.
 */
export class SmpReassembler {
  private pending = new Uint8Array(0);

  /** Takes the next piece; returns the messages it completes (as bytes, in order). */
  push(piece: Uint8Array): Uint8Array[] {
    const joined = new Uint8Array(this.pending.length + piece.length);
    joined.set(this.pending);
    joined.set(piece, this.pending.length);
    const whole: Uint8Array[] = [];
    let at = 0;
    while (joined.length - at >= SMP_HEADER_SIZE) {
      const size = SMP_HEADER_SIZE + readHeader(joined.subarray(at)).length;
      if (joined.length - at < size) break;
      whole.push(joined.slice(at, at + size));
      at += size;
    }
    this.pending = joined.slice(at);
    return whole;
  }

  /** Forgets a partial message (the link dropped). */
  reset(): void {
    this.pending = new Uint8Array(0);
  }
}
