import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fleetCodec, vectors } from './run-cli.ts';

const example = (await import('../vectors/cli-example.json', { with: { type: 'json' } })).default;
const scratch = mkdtempSync(join(tmpdir(), 'fleet-codec-'));
const file = (name: string, text: string): string => {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
};

describe('fleet-codec crc16', () => {
  it('prints the CRC as 4 hex digits, then the two wire bytes, for spaced or packed hex', () => {
    expect(fleetCodec('crc16', '01 03 00 00 00 0A')).toEqual({
      status: 0,
      stdout: 'cdc5 c5 cd\n',
      stderr: '',
    });
    expect(fleetCodec('crc16', '313233343536373839').stdout).toBe('4b37 37 4b\n');
    expect(fleetCodec('crc16', '01', '03', '00', '00', '00', '0a').stdout).toBe('cdc5 c5 cd\n');
  });

  it.each([
    ['0g', "hex input has a character that is not hex: 'g'"],
    ['012', 'hex input has an odd number of hex digits (3)'],
  ])('exits 2 with one line on stderr for bad hex %s', (input, message) => {
    expect(fleetCodec('crc16', input)).toEqual({
      status: 2,
      stdout: '',
      stderr: `fleet-codec: ${message}\n`,
    });
  });
});

describe('fleet-codec frame and verify', () => {
  it('prints the whole frame in lower-case hex', () => {
    expect(fleetCodec('frame', '--opcode', '1', '--size', '8', '03 00 00 00 0A').stdout).toBe(
      '01030000000ac5cd\n',
    );
    const full = fleetCodec('frame', '--opcode', '0x10', '--size', '255').stdout.trim();
    expect(full).toHaveLength(510);
    expect(full.startsWith('10')).toBe(true);
  });

  it('verify prints ok and exits 0 for a good frame', () => {
    expect(fleetCodec('verify', '01 03 00 00 00 0a c5 cd')).toEqual({
      status: 0,
      stdout: 'ok\n',
      stderr: '',
    });
  });

  it('verify says what is wrong and exits 1 for a bad CRC or a wrong size', () => {
    const bad = fleetCodec('verify', '01030000000acdc5');
    expect(bad.status).toBe(1);
    expect(bad.stdout).toMatch(/^CRC mismatch: the frame carries 0xc5cd but its bytes compute 0xcdc5\n$/);
    const short = fleetCodec('verify', '--size', '255', '01030000000ac5cd');
    expect(short).toMatchObject({ status: 1, stdout: 'frame of 8 bytes; expected 255\n' });
  });

  it('exits 2 for an opcode out of range, a missing option or an unknown command', () => {
    expect(fleetCodec('frame', '--opcode', '300', '--size', '255')).toMatchObject({
      status: 2,
      stderr: 'fleet-codec: opcode 300 is not a whole number from 0 to 255\n',
    });
    expect(fleetCodec('frame', '--size', '255')).toMatchObject({
      status: 2,
      stderr: 'fleet-codec: option --opcode is required\n',
    });
    expect(fleetCodec('squash', '00').status).toBe(2);
  });
});

describe('fleet-codec decode and encode with the vector files', () => {
  it('decodes a frame to {name: raw × multiplier}', () => {
    const run = fleetCodec('decode', '--descriptors', vectors('descriptors.json'), example.frame);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(example.decoded);
  });

  it('encodes values.json into the same frame', () => {
    const run = fleetCodec(
      'encode',
      '--descriptors',
      vectors('descriptors.json'),
      '--values',
      vectors('values.json'),
      '--opcode',
      String(example.opcode),
      '--size',
      String(example.size),
    );
    expect(run).toEqual({ status: 0, stdout: `${example.frame}\n`, stderr: '' });
  });

  it('exits 2 naming an unreadable file', () => {
    const run = fleetCodec('decode', '--descriptors', join(scratch, 'missing.json'), example.frame);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^fleet-codec: cannot read .*missing\.json: ENOENT\n$/);
  });

  it('exits 2 naming the item and field of an invalid descriptor', () => {
    const path = file(
      'bad.json',
      JSON.stringify([
        { name: 'volts', buffer: { position: 1, length: 12, signed: false, littleEndian: true } },
      ]),
    );
    expect(fleetCodec('decode', '--descriptors', path, example.frame)).toMatchObject({
      status: 2,
      stderr: `fleet-codec: ${path} item 0 ("volts"): buffer.length must be 8, 16 or 32\n`,
    });
  });

  it('exits 2 naming the item of a descriptor that runs past the 254-byte view', () => {
    const path = file(
      'past-view.json',
      JSON.stringify([
        { name: 'serial', buffer: { position: 252, length: 32, signed: false, littleEndian: false } },
      ]),
    );
    expect(fleetCodec('decode', '--descriptors', path, example.frame)).toMatchObject({
      status: 2,
      stderr: `fleet-codec: ${path} item 0 ("serial"): field at position 252 with 32 bits runs past the 254-byte view\n`,
    });
  });

  it('exits 2 naming the value that does not fit its field after scaling, printing no frame', () => {
    const values = file('too-big.json', JSON.stringify({ ...example.decoded, chargeLimit: 300 }));
    const run = fleetCodec(
      'encode',
      '--descriptors',
      vectors('descriptors.json'),
      '--values',
      values,
      '--opcode',
      '16',
      '--size',
      '255',
    );
    expect(run).toEqual({
      status: 2,
      stdout: '',
      stderr: `fleet-codec: ${values}: "chargeLimit" 300: value 300 does not fit the unsigned 8-bit field at position 10 (0 to 255)\n`,
    });
  });

  it('exits 2 when values.json lacks a field', () => {
    const { mode: _mode, ...rest } = example.decoded;
    const values = file('partial.json', JSON.stringify(rest));
    const run = fleetCodec(
      'encode',
      '--descriptors',
      vectors('descriptors.json'),
      '--values',
      values,
      '--opcode',
      '1',
      '--size',
      '255',
    );
    expect(run).toMatchObject({ status: 2, stderr: `fleet-codec: ${values}: no value for "mode"\n` });
  });

  it('divides each value by its multiplier and rounds to the nearest integer', () => {
    const values = file('rounded.json', JSON.stringify({ ...example.decoded, batteryVoltage: 51.24 }));
    const encoded = fleetCodec(
      'encode',
      '--descriptors',
      vectors('descriptors.json'),
      '--values',
      values,
      '--opcode',
      '16',
      '--size',
      '255',
    ).stdout.trim();
    expect(encoded).toBe(example.frame);
  });
});

describe('fleet-codec usage', () => {
  it('prints the commands on --help and exits 0', () => {
    const run = fleetCodec('--help');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^usage: fleet-codec/);
    for (const command of ['crc16', 'frame', 'verify', 'decode', 'encode'])
      expect(run.stdout).toContain(command);
  });

  it('exits 2 with the usage on stderr when no command is given', () => {
    expect(fleetCodec()).toMatchObject({
      status: 2,
      stdout: '',
      stderr: expect.stringMatching(/^usage: fleet-codec/),
    });
  });
});
