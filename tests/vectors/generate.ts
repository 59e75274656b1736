// Writes the codec test vectors in this folder from the pure-TypeScript reference:
//   node --import tsx tests/vectors/generate.ts
// The CRC check values are published ones; vectors.test.ts checks every file against both codecs.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fieldRange } from '../../src/codec/field-checks.ts';
import { referenceCodec as codec } from '../../src/codec/reference-codec.ts';
import { type BufferDescriptor, CodecError, type FieldWidth } from '../../src/codec/types.ts';

const here = dirname(fileURLToPath(import.meta.url));
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const ascii = (s: string): Uint8Array => new TextEncoder().encode(s);
const write = (name: string, data: unknown): void =>
  writeFileSync(join(here, name), `${JSON.stringify(data, null, 2)}\n`);

function errorCode(call: () => unknown): string {
  try {
    call();
  } catch (error) {
    if (error instanceof CodecError) return error.code;
  }
  throw new Error('expected a codec error');
}

const crcInputs: [string, Uint8Array][] = [
  ['ASCII "123456789" (published check value)', ascii('123456789')],
  [
    'Modbus read request 01 03 00 00 00 0A (published: followed by C5 CD)',
    Buffer.from('01030000000a', 'hex'),
  ],
  ['no bytes', new Uint8Array(0)],
  ['one zero byte', new Uint8Array(1)],
  ['253 bytes 0..252 (the CRC span of a 255-byte frame)', new Uint8Array(253).map((_, i) => i)],
];
write(
  'crc.json',
  crcInputs.map(([name, bytes]) => {
    const crc = codec.crc16(bytes);
    return {
      name,
      input: hex(bytes),
      crc: crc.toString(16).padStart(4, '0'),
      wire: hex(new Uint8Array([crc & 0xff, crc >> 8])),
    };
  }),
);

const frameCases: [string, number, number, string][] = [
  ['Modbus request as a frame', 0x01, 8, '030000000a'],
  ['empty 255-byte command', 0x10, 255, ''],
  ['255-byte command with a payload', 0x21, 255, '0102030405'],
  ['smallest frame', 0xff, 3, ''],
];
const built = frameCases.map(([name, opcode, size, payload]) => ({
  name,
  opcode,
  size,
  payload,
  frame: hex(codec.buildFrame(opcode, size, Buffer.from(payload, 'hex'))),
}));
const good = built[2]?.frame ?? '';
const flipped = `${good.slice(0, 20)}ff${good.slice(22)}`;
write('frames.json', {
  built,
  rejected: [
    { name: 'one byte changed after sealing', frame: flipped, expectedSize: 255, error: 'crc-mismatch' },
    { name: 'CRC bytes swapped', frame: '01030000000acdc5', error: 'crc-mismatch' },
    {
      name: 'shorter than the expected size',
      frame: built[0]?.frame,
      expectedSize: 255,
      error: 'frame-length',
    },
    { name: 'too short for opcode and CRC', frame: 'ffff', error: 'frame-length' },
  ].map((v) => ({ ...v, ...(v.expectedSize ? {} : { expectedSize: null }) })),
});

const shapes = ([8, 16, 32] as FieldWidth[]).flatMap((length) =>
  [false, true].flatMap((signed) => [false, true].map((littleEndian) => ({ length, signed, littleEndian }))),
);
const fields = shapes.flatMap((shape, k) => {
  const position = 1 + k * 20;
  const d: BufferDescriptor = { position, ...shape };
  const [min, max] = fieldRange(d);
  const samples = [...new Set([min, max, 0, 1, shape.signed ? -1 : 0x12, Math.trunc(max / 3)])];
  return samples.map((value) => {
    const view = new Uint8Array(254);
    codec.writeField(view, d, value);
    return { buffer: d, value, bytes: hex(view.subarray(position, position + shape.length / 8)) };
  });
});
const bad: [BufferDescriptor, number][] = [
  [{ position: 253, length: 16, signed: false, littleEndian: false }, 0],
  [{ position: 0, length: 12 as FieldWidth, signed: false, littleEndian: false }, 0],
  [{ position: 0, length: 8, signed: false, littleEndian: false }, 256],
  [{ position: 0, length: 16, signed: true, littleEndian: true }, -32769],
  [{ position: 0, length: 32, signed: false, littleEndian: true }, 2.5],
];
write('fields.json', {
  valid: fields,
  rejected: bad.map(([buffer, value]) => ({
    buffer,
    value,
    error: errorCode(() => codec.writeField(new Uint8Array(254), buffer, value)),
  })),
});

write('passwords.json', {
  valid: ['', 'secret', '0123456789abcdef', 'Pässwörd'].map((password) => ({
    password,
    codes: codec.passwordCodes(password),
  })),
  rejected: [
    { password: '0123456789abcdefg', error: 'password-too-long' },
    { password: 'euro€', error: 'password-character' },
  ],
});

// The CLI example: encode values.json with descriptors.json into a 255-byte frame with opcode 0x10.
const example = JSON.parse(
  (await import('node:fs')).readFileSync(join(here, 'descriptors.json'), 'utf8'),
) as { name: string; buffer: BufferDescriptor; multiplier?: number }[];
const values = JSON.parse(
  (await import('node:fs')).readFileSync(join(here, 'values.json'), 'utf8'),
) as Record<string, number>;
const exampleFrame = codec.buildFrame(0x10, 255);
codec.encodeFields(
  exampleFrame,
  example.map((item) => item.buffer),
  example.map((item) => Math.round((values[item.name] as number) / (item.multiplier ?? 1))),
);
codec.sealFrame(exampleFrame);
write('cli-example.json', {
  opcode: 16,
  size: 255,
  descriptors: 'descriptors.json',
  values: 'values.json',
  frame: hex(exampleFrame),
  decoded: values,
});
