import { beforeAll, describe, expect, it } from 'vitest';
import { composeFrame, EMPTY_DRAFT, OPCODE_MESSAGE } from '../../machines/remote-debugger/compose-frame.ts';
import { parseOpcode, readTypedHex, toHex } from '../../machines/remote-debugger/hex.ts';
import { readAnswer } from '../../machines/remote-debugger/read-answer.ts';
import { loadCodec } from '../../src/codec/load-node.ts';
import type { Codec } from '../../src/codec/types.ts';
import type { DeviceProduct } from '../../src/device-config/load-product.ts';
import { SimulatedDevice } from '../../src/device-sim/simulated-device.ts';
import { bundledProducts } from '../device-config/bundled-products.ts';

let codec: Codec;
const hybrid = bundledProducts().find((p) => p.modelId === 'HX-5000') as DeviceProduct;

/** The same product with frames of another size, to check frames against published check values. */
function withBufferSize(size: number): DeviceProduct {
  return { ...hybrid, entry: { ...hybrid.entry, write: { ...hybrid.entry.write, bufferSize: size } } };
}

beforeAll(async () => {
  codec = await loadCodec();
});

describe('hex input', () => {
  it('reads pairs with spaces, commas and 0x prefixes, and runs of pairs', () => {
    expect(readTypedHex('01 03, 0x00 0a')).toEqual({ ok: true, bytes: Uint8Array.of(1, 3, 0, 10) });
    expect(readTypedHex('0103000A')).toEqual({ ok: true, bytes: Uint8Array.of(1, 3, 0, 10) });
    expect(readTypedHex('  ')).toEqual({ ok: true, bytes: new Uint8Array() });
  });

  it('names the group that is not hex or has an odd number of digits', () => {
    expect(readTypedHex('01 zz')).toEqual({ ok: false, message: expect.stringContaining('“zz” is not hex') });
    expect(readTypedHex('010')).toEqual({ ok: false, message: expect.stringContaining('odd number') });
  });

  it('reads an opcode as one byte 00–FF and refuses anything else', () => {
    expect(parseOpcode('0x10')).toBe(0x10);
    expect(parseOpcode('ff')).toBe(0xff);
    expect(parseOpcode('100')).toBeNull();
    expect(parseOpcode('g1')).toBeNull();
  });
});

describe('framing a command', () => {
  it('frames the Modbus check request 01 03 00 00 00 0A with C5 CD', () => {
    const composed = composeFrame(codec, withBufferSize(8), {
      ...EMPTY_DRAFT,
      opcodeText: '01',
      payloadHex: '03 00 00 00 0a',
    });
    expect(composed.ok && toHex(composed.frame)).toBe('01 03 00 00 00 0A C5 CD');
  });

  it('seals "123456789" with the CRC-16/MODBUS check value 0x4B37, low byte first', () => {
    const composed = composeFrame(codec, withBufferSize(11), {
      ...EMPTY_DRAFT,
      opcodeText: '31',
      payloadHex: '32 33 34 35 36 37 38 39',
    });
    expect(composed.ok && toHex(composed.frame)).toBe('31 32 33 34 35 36 37 38 39 37 4B');
  });

  it('frames a catalogue command at the product size with the opcode at 0 and the CRC at 253–254', () => {
    const composed = composeFrame(codec, hybrid, { ...EMPTY_DRAFT, opcodeText: '10' });
    if (!composed.ok) throw new Error(composed.message);
    expect(composed.frame.length).toBe(255);
    expect(composed.frame[0]).toBe(0x10);
    const crc = codec.crc16(composed.frame.subarray(0, 253));
    expect([composed.frame[253], composed.frame[254]]).toEqual([crc & 0xff, crc >> 8]);
  });

  it('refuses a payload longer than the frame, saying how much fits', () => {
    const composed = composeFrame(codec, withBufferSize(8), {
      ...EMPTY_DRAFT,
      payloadHex: '01 02 03 04 05 06',
    });
    expect(composed).toEqual({
      ok: false,
      message:
        'The payload has 6 bytes, but a frame of 8 bytes holds at most 5 between the opcode and the CRC.',
    });
  });

  it('refuses bad hex and a bad opcode with a message', () => {
    expect(composeFrame(codec, hybrid, { ...EMPTY_DRAFT, payloadHex: '0g' })).toEqual({
      ok: false,
      message: expect.stringContaining('Payload: “0g” is not hex'),
    });
    expect(composeFrame(codec, hybrid, { ...EMPTY_DRAFT, opcodeText: '1ff' })).toEqual({
      ok: false,
      message: OPCODE_MESSAGE,
    });
  });

  it('writes named fields at their rawData positions, in display units', () => {
    const item = hybrid.config.rawData.find((i) => i.multiplier !== 1 && i.buffer.length === 16);
    if (!item) throw new Error('no scaled 16-bit field');
    const shown = 3 * item.multiplier;
    const composed = composeFrame(codec, hybrid, {
      ...EMPTY_DRAFT,
      opcodeText: '02',
      payloadMode: 'fields',
      fieldValues: { [item.name]: String(shown) },
    });
    if (!composed.ok) throw new Error(composed.message);
    expect(codec.readField(codec.dataView(composed.frame), item.buffer)).toBe(3);
    expect(() => codec.verifyFrame(composed.frame, 255)).not.toThrow();
  });

  it('names a field whose value does not fit its width', () => {
    const item = hybrid.config.rawData.find((i) => i.buffer.length === 8 && !i.buffer.signed);
    if (!item) throw new Error('no 8-bit field');
    const composed = composeFrame(codec, hybrid, {
      ...EMPTY_DRAFT,
      payloadMode: 'fields',
      fieldValues: { [item.name]: String(1000 * item.multiplier) },
    });
    expect(composed).toEqual({
      ok: false,
      message: `${item.name}: ${1000 * item.multiplier} does not fit its 8-bit field.`,
    });
  });
});

describe('reading an answer', () => {
  const device = () =>
    new SimulatedDevice({
      codec,
      entry: hybrid.entry,
      config: hybrid.config,
      serialNumber: 'HX5K-24-000123',
    });

  it('decodes a configuration answer and lays every rawData field over its bytes', () => {
    const sent = codec.buildFrame(0x01, 255);
    const answer = device().request(sent);
    const report = readAnswer(codec, hybrid, answer, sent);
    expect(report.outcome).toBe('answered');
    const item = hybrid.config.rawData[0];
    if (!item) throw new Error('no rawData');
    expect(report.values?.[item.name]).toBeDefined();
    expect(report.bytes[item.buffer.position]?.field).toBe(item.name);
    expect(report.bytes[0]).toEqual({ field: 'opcode', value: '0x81' });
    expect(report.bytes[253]?.field).toBe('CRC (low byte)');
  });

  it("reads the device name's character codes as the name, byte by byte", () => {
    const sent = codec.buildFrame(0x01, 255);
    const report = readAnswer(codec, hybrid, device().request(sent), sent);
    const first = hybrid.config.rawData.find((item) => item.name === 'name_00');
    if (!first) throw new Error('no name_00');
    const name = String(report.values?.deviceName ?? '');
    expect(name.length).toBeGreaterThan(0);
    expect(report.bytes[first.buffer.position]).toEqual({
      field: 'deviceName, character 1',
      value: `“${name[0]}” (${name.charCodeAt(0)})`,
    });
  });

  it('names the error code of an error answer', () => {
    const sent = codec.buildFrame(0x10, 255);
    const report = readAnswer(codec, hybrid, device().request(sent), sent);
    expect(report).toMatchObject({ outcome: 'device-error', errorCode: 'locked' });
    expect(report.message).toBe(
      'The device answered error 0x05 (locked): The device is locked: give its password first.',
    );
  });

  it('reports an answer with a bad CRC as damaged, without throwing', () => {
    const sent = codec.buildFrame(0x01, 255);
    const answer = device().request(sent);
    answer[10] = (answer[10] ?? 0) ^ 0xff;
    expect(readAnswer(codec, hybrid, answer, sent)).toMatchObject({
      outcome: 'bad-answer',
      message: 'The answer was damaged: its CRC does not match its bytes.',
      values: null,
    });
  });

  it('reports an answer of the wrong size', () => {
    const sent = codec.buildFrame(0x01, 255);
    expect(readAnswer(codec, hybrid, Uint8Array.of(0x81, 0, 0), sent).message).toBe(
      'The answer was damaged: it has 3 bytes instead of 255.',
    );
  });
});
