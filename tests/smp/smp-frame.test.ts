// SMP (MCUmgr) messages: the 8-byte header byte by byte, CBOR bodies, pieces joined into messages,
// and the sizes of upload chunks within a device's buffer.
import { encode } from 'cborg';
import { describe, expect, it } from 'vitest';
import { CborBodyError, decodeBody } from '../../src/smp/smp-cbor.ts';
import { chunkDataSize, SmpClient } from '../../src/smp/smp-client.ts';
import { IMG_ERR, SMP_GROUP, SmpError } from '../../src/smp/smp-codes.ts';
import {
  answerError,
  readImageState,
  readImageStateAnswer,
  readParamsAnswer,
  readUploadAnswer,
  uploadChunk,
} from '../../src/smp/smp-commands.ts';
import {
  decodeMessage,
  encodeMessage,
  readHeader,
  SmpFrameError,
  SmpReassembler,
} from '../../src/smp/smp-frame.ts';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const fromHex = (text: string) => new Uint8Array(Buffer.from(text.replace(/\s/g, ''), 'hex'));

describe('the SMP header', () => {
  it('writes op and version in byte 0, then flags, length, group, sequence and command big-endian', () => {
    const message = encodeMessage(
      { op: 2, version: 1, group: 0x0102, sequence: 0x7f, command: 6 },
      { off: 0 },
    );
    // a1 63 "off" 00: a map of one pair, 6 bytes.
    expect(hex(message)).toBe('0a000006010' + '27f06' + 'a1636f666600');
    expect(readHeader(message)).toEqual({
      op: 2,
      version: 1,
      flags: 0,
      length: 6,
      group: 0x102,
      sequence: 0x7f,
      command: 6,
    });
  });

  it('reads a state read of the original protocol', () => {
    const { header, body } = decodeMessage(fromHex('00 00 00 01 00 01 2a 00 a0'));
    expect(header).toMatchObject({ op: 0, version: 0, group: SMP_GROUP.image, sequence: 42, command: 0 });
    expect(Object.keys(body)).toEqual([]);
  });

  it('refuses a length that disagrees with the bytes, and a short header', () => {
    expect(() => decodeMessage(fromHex('00 00 00 05 00 01 00 00 a0'))).toThrow(SmpFrameError);
    expect(() => decodeMessage(fromHex('00 00 00'))).toThrow(/8 bytes/);
  });
});

describe('CBOR bodies', () => {
  it('reads maps with text keys, byte strings and indefinite maps', () => {
    const body = decodeBody(fromHex('bf 63 6f 66 66 19 01 00 64 64 61 74 61 42 01 02 ff'));
    expect(body.off).toBe(256);
    expect(body.data).toEqual(new Uint8Array([1, 2]));
  });

  it('keeps a key named __proto__ as a key, never as the prototype', () => {
    const body = decodeBody(encode(new Map([['__proto__', { polluted: true }]])));
    expect(Object.getPrototypeOf(body)).toBeNull();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses what SMP does not use: a non-map, a tag, an integer key, a big integer, two bodies', () => {
    for (const bytes of ['01', 'c1 00', 'a1 01 02', 'a1 61 61 1b ff ff ff ff ff ff ff ff', 'a0 a0', 'a1 61'])
      expect(() => decodeBody(fromHex(bytes)), bytes).toThrow(CborBodyError);
  });
});

describe('answers', () => {
  it("names an SMP version 2 image error, with the device's reason", () => {
    const error = answerError(decodeBody(encode({ err: { group: 1, rc: IMG_ERR.invalidHash }, rsn: 'bad' })));
    expect(error).toBeInstanceOf(SmpError);
    expect(error?.message).toBe('The device answered with an invalid hash: bad.');
    expect(answerError(decodeBody(encode({ rc: 0, off: 3 })))).toBeNull();
    expect(() => readUploadAnswer(decodeBody(encode({ rc: 8 })))).toThrow(/command it does not support/);
  });

  it('reads image state, offsets and MCUmgr parameters, and refuses bad shapes', () => {
    const state = readImageStateAnswer(
      decodeBody(encode({ images: [{ slot: 0, version: '1.0.0', hash: new Uint8Array(32), active: true }] })),
    );
    expect(state[0]).toMatchObject({ image: 0, slot: 0, version: '1.0.0', active: true, confirmed: false });
    expect(readUploadAnswer(decodeBody(encode({ off: 512 })))).toEqual({ off: 512 });
    expect(readParamsAnswer(decodeBody(encode({ buf_size: 2475, buf_count: 4 })))).toEqual({
      bufSize: 2475,
      bufCount: 4,
    });
    expect(() => readImageStateAnswer(decodeBody(encode({ images: 'no' })))).toThrow(SmpError);
    expect(() => readUploadAnswer(decodeBody(encode({ off: -1 })))).toThrow(SmpError);
    expect(() => readParamsAnswer(decodeBody(encode({ buf_size: 3 })))).toThrow(SmpError);
  });
});

describe('the client', () => {
  it('numbers requests and refuses an answer to another request', async () => {
    const seen: number[] = [];
    const client = new SmpClient(async (message) => {
      const { header } = decodeMessage(message);
      seen.push(header.sequence);
      const sequence = seen.length === 2 ? header.sequence + 1 : header.sequence;
      return encodeMessage({ ...header, op: (header.op + 1) as 1, sequence }, { images: [] });
    });
    expect(readImageStateAnswer(await client.request(readImageState()))).toEqual([]);
    await expect(client.request(readImageState())).rejects.toThrow(/another request/);
    expect(seen).toEqual([0, 1]);
  });
});

describe('pieces of messages', () => {
  it('joins messages split across notifications, and several in one piece', () => {
    const a = encodeMessage({ op: 1, version: 1, group: 1, sequence: 1, command: 1 }, { off: 10 });
    const b = encodeMessage({ op: 3, version: 1, group: 0, sequence: 2, command: 5 }, {});
    const joined = new Uint8Array([...a, ...b]);
    const reassembler = new SmpReassembler();
    expect(reassembler.push(joined.subarray(0, 3))).toEqual([]);
    expect(reassembler.push(joined.subarray(3, a.length + 2))).toEqual([a]);
    expect(reassembler.push(joined.subarray(a.length + 2))).toEqual([b]);
    expect(reassembler.push(joined)).toEqual([a, b]);
  });
});

describe('chunk sizes', () => {
  it('fills the buffer exactly, first chunk and later ones', () => {
    const sha = new Uint8Array(32);
    for (const bufSize of [128, 280, 2475, 4096]) {
      for (const chunk of [{ off: 0, len: 300_000, sha }, { off: 299_000 }]) {
        const size = chunkDataSize(bufSize, chunk);
        const encode = (n: number) =>
          encodeMessage(
            { op: 2, version: 1, group: 1, sequence: 0, command: 1 },
            uploadChunk({ ...chunk, data: new Uint8Array(n) }).body,
          ).length;
        expect(encode(size), `${bufSize} ${chunk.off}`).toBeLessThanOrEqual(bufSize);
        expect(encode(size + 1), `${bufSize} ${chunk.off}`).toBeGreaterThan(bufSize);
      }
    }
  });
});
