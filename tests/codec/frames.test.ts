import { describe, expect, it } from 'vitest';
import { bytes, implementations, outcome } from './implementations.ts';

describe.each(await implementations())('frames (%s)', (_name, codec) => {
  it('builds a 255-byte frame: opcode first, payload after, zeros, CRC low byte at 253', () => {
    const frame = codec.buildFrame(0x21, 255, bytes('0a0b0c'));
    expect(frame).toHaveLength(255);
    expect([...frame.subarray(0, 5)]).toEqual([0x21, 0x0a, 0x0b, 0x0c, 0]);
    expect(frame.subarray(4, 253).every((b) => b === 0)).toBe(true);
    const crc = codec.crc16(frame.subarray(0, 253));
    expect([frame[253], frame[254]]).toEqual([crc & 0xff, crc >> 8]);
    expect(() => codec.verifyFrame(frame, 255)).not.toThrow();
  });

  it('rejects a frame with one flipped bit as a CRC mismatch naming both CRCs', () => {
    const frame = codec.buildFrame(0x21, 255);
    frame[100] = (frame[100] as number) ^ 0x04;
    const result = outcome(() => codec.verifyFrame(frame, 255));
    expect(result).toMatchObject({ code: 'crc-mismatch' });
    expect(result).toHaveProperty(
      'message',
      expect.stringMatching(/carries 0x[0-9a-f]{4} but its bytes compute/),
    );
  });

  it('rejects a frame of the wrong length before looking at its CRC', () => {
    const frame = codec.buildFrame(0x21, 20);
    expect(outcome(() => codec.verifyFrame(frame, 255))).toEqual({
      code: 'frame-length',
      message: 'frame of 20 bytes; expected 255',
    });
    expect(outcome(() => codec.verifyFrame(new Uint8Array(2)))).toMatchObject({ code: 'frame-length' });
  });

  it('seals a frame in place so that it verifies', () => {
    const frame = new Uint8Array(255).fill(0x5a);
    codec.sealFrame(frame);
    expect(() => codec.verifyFrame(frame)).not.toThrow();
    expect(outcome(() => codec.sealFrame(new Uint8Array(1)))).toMatchObject({ code: 'frame-length' });
  });

  it('reads raw data through the first 254 bytes of the same memory', () => {
    const frame = codec.buildFrame(7, 255);
    const view = codec.dataView(frame);
    expect(view).toHaveLength(254);
    view[10] = 99;
    expect(frame[10]).toBe(99);
    expect(outcome(() => codec.dataView(new Uint8Array(253)))).toEqual({
      code: 'frame-length',
      message: 'frame of 253 bytes is shorter than the 254-byte data view',
    });
  });

  it.each([
    [-1, 'opcode -1 is not a whole number from 0 to 255'],
    [256, 'opcode 256 is not a whole number from 0 to 255'],
    [1.5, 'opcode 1.5 is not a whole number from 0 to 255'],
  ])('refuses opcode %s', (opcode, message) => {
    expect(outcome(() => codec.buildFrame(opcode, 255))).toEqual({ code: 'invalid-opcode', message });
  });

  it('refuses a buffer size that cannot hold opcode, payload and CRC', () => {
    expect(outcome(() => codec.buildFrame(1, 2))).toMatchObject({ code: 'invalid-buffer-size' });
    expect(outcome(() => codec.buildFrame(1, 70000))).toMatchObject({ code: 'invalid-buffer-size' });
    expect(outcome(() => codec.buildFrame(1, 6, bytes('01020304')))).toEqual({
      code: 'invalid-buffer-size',
      message: 'payload of 4 bytes does not fit a 6-byte frame (room for 3)',
    });
  });
});
