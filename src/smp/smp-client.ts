import type { CborMap } from './smp-cbor.ts';
import { SMP_VERSION } from './smp-codes.ts';
import { answers, type SmpRequest, type UploadChunk, uploadChunk } from './smp-commands.ts';
import { decodeMessage, encodeMessage, readHeader, SmpFrameError } from './smp-frame.ts';

/** Sends one whole SMP message and resolves with the whole answer message (a link's exchange). */
export type SmpExchange = (message: Uint8Array) => Promise<Uint8Array>;

/**
 * The central's side of SMP: numbers each request, checks that the answer is the answer to it,
 * and reads its body.
 * @example const state = readImageStateAnswer(await client.request(readImageState()));
 */
export class SmpClient {
  private sequence = 0;

  constructor(private readonly exchange: SmpExchange) {}

  /** @throws SmpFrameError when the answer is not one, or answers another request. */
  async request(request: SmpRequest): Promise<CborMap> {
    const header = {
      op: request.op,
      version: SMP_VERSION.v2,
      group: request.group,
      sequence: this.sequence,
      command: request.command,
    };
    this.sequence = (this.sequence + 1) & 0xff;
    const message = encodeMessage(header, request.body);
    const answer = decodeMessage(await this.exchange(message));
    if (!answers(answer.header, readHeader(message)))
      throw new SmpFrameError('the device answered another request');
    return answer.body;
  }
}

const bstrHead = (n: number) => (n < 24 ? 1 : n < 256 ? 2 : n < 65_536 ? 3 : 5);

/**
 * The most image bytes one upload request can carry within the device's `buf_size`, counted from
 * the request's own encoding (the first chunk carries `len` and `sha` too).
 * @example chunkDataSize(2475, { off: 0, len: 200_000, sha }) // 2410 or so
 */
export function chunkDataSize(bufSize: number, chunk: Omit<UploadChunk, 'data'>): number {
  const empty = encodeMessage(
    { op: 2, version: SMP_VERSION.v2, group: 0, sequence: 0, command: 0 },
    uploadChunk({ ...chunk, data: new Uint8Array(0) }).body,
  ).length;
  let room = bufSize - empty;
  while (room > 0 && bstrHead(room) - 1 + room > bufSize - empty) room -= 1;
  return Math.max(0, room);
}
