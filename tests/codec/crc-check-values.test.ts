import { describe, expect, it } from 'vitest';
import { ascii, bytes, hex, implementations } from './implementations.ts';

describe.each(await implementations())('CRC-16/MODBUS check values (%s)', (_name, codec) => {
  it('gives 0x4B37 for ASCII "123456789"', () => {
    expect(codec.crc16(ascii('123456789'))).toBe(0x4b37);
  });

  it('appends C5 CD to the Modbus request 01 03 00 00 00 0A', () => {
    const request = bytes('01 03 00 00 00 0A');
    const crc = codec.crc16(request);
    expect(crc).toBe(0xcdc5);
    const frame = codec.buildFrame(0x01, 8, bytes('03 00 00 00 0A'));
    expect(hex(frame)).toBe('01030000000ac5cd');
  });

  it('starts from 0xFFFF, so no bytes give 0xFFFF', () => {
    expect(codec.crc16(new Uint8Array(0))).toBe(0xffff);
  });

  it('gives the bitwise CRC for 200 kB, more than the Wasm I/O region holds at once', () => {
    const big = new Uint8Array(200_000).map((_, i) => (i * 31 + 7) & 0xff);
    let crc = 0xffff;
    for (const b of big) {
      crc ^= b;
      for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
    }
    expect(codec.crc16(big)).toBe(crc);
  });
});
