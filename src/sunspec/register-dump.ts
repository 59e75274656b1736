import { SunSpecError } from './sunspec-error.ts';

/** Registers read from a device; `start` is the address of the first, when the dump says. */
export interface RegisterDump {
  start: number | null;
  registers: Uint16Array;
}

/** The two registers of the `SunS` marker. */
export const SUNS_MARKER = [0x5375, 0x6e53] as const;

/** Where the standard lets a device put its `SunS` marker, in the order they are tried. */
export const MARKER_ADDRESSES = [40000, 0, 50000] as const;

/** The address assumed for a dump that starts with the marker and does not say where it was read. */
export const DEFAULT_BASE = 40000;

/**
 * Reads a register dump: hex text of the register bytes (big-endian, two bytes a register), with
 * any spacing and line breaks, `#` comments, and an optional `@<address>` first word giving the
 * address of the first register (`@40000`, `@0x9c40`).
 *
 * @example
 * parseDump('@40000\n5375 6e53 ffff 0000'); // { start: 40000, registers: [0x5375, 0x6e53, 0xffff, 0] }
 * @throws SunSpecError 'bad-dump' naming the line and character that is not hex, an odd number of
 *   hex digits, or an empty dump.
 */
export function parseDump(text: string): RegisterDump {
  let start: number | null = null;
  let digits = '';
  const lines = text.split(/\r?\n/);
  lines.forEach((line, index) => {
    let body = line.replace(/#.*$/, '');
    const address = /^\s*@(\S*)/.exec(body);
    if (address) {
      if (start !== null || digits.length > 0) {
        throw new SunSpecError('bad-dump', `line ${index + 1}: the @address must come before the registers`);
      }
      const word = address[1] ?? '';
      const value = /^0x[0-9a-f]+$/i.test(word)
        ? Number.parseInt(word, 16)
        : /^\d+$/.test(word)
          ? Number(word)
          : NaN;
      if (!Number.isInteger(value) || value > 0xffff) {
        throw new SunSpecError(
          'bad-dump',
          `line ${index + 1}: '@${word}' is not a register address (0 to 65535)`,
        );
      }
      start = value;
      body = body.slice(address[0].length);
    }
    const compact = body.replace(/\s+/g, '').replace(/^0x/i, '');
    const bad = compact.search(/[^0-9a-fA-F]/);
    if (bad >= 0) {
      throw new SunSpecError('bad-dump', `line ${index + 1}: '${compact[bad]}' is not a hex digit`);
    }
    digits += compact;
  });
  if (digits.length === 0) throw new SunSpecError('bad-dump', 'the dump has no registers');
  if (digits.length % 4 !== 0) {
    throw new SunSpecError(
      'bad-dump',
      `the dump has ${digits.length} hex digits, which is not a whole number of registers (4 digits each)`,
    );
  }
  const registers = new Uint16Array(digits.length / 4);
  for (let i = 0; i < registers.length; i++)
    registers[i] = Number.parseInt(digits.slice(4 * i, 4 * i + 4), 16);
  return { start, registers };
}

/** Hex text of registers, eight to a line, with the `@address` line first: what {@link parseDump} reads. */
export function formatDump(start: number, registers: Uint16Array): string {
  const lines = [`@${start}`];
  for (let i = 0; i < registers.length; i += 8) {
    lines.push(Array.from(registers.subarray(i, i + 8), (r) => r.toString(16).padStart(4, '0')).join(' '));
  }
  return `${lines.join('\n')}\n`;
}

const isMarkerAt = (registers: Uint16Array, index: number) =>
  index >= 0 && registers[index] === SUNS_MARKER[0] && registers[index + 1] === SUNS_MARKER[1];

/**
 * Finds the `SunS` marker: at register 40000, 0 or 50000 of the dump's address space, or at its
 * first register. Returns the address of the marker and of the dump's first register.
 * @throws SunSpecError 'no-marker' saying where it looked.
 */
export function locateMarker(dump: RegisterDump): { start: number; marker: number } {
  const { registers } = dump;
  if (dump.start === null && isMarkerAt(registers, 0)) return { start: DEFAULT_BASE, marker: DEFAULT_BASE };
  const start = dump.start ?? 0;
  for (const address of [...MARKER_ADDRESSES, start]) {
    if (isMarkerAt(registers, address - start)) return { start, marker: address };
  }
  throw new SunSpecError(
    'no-marker',
    `no SunS marker (0x53756e53) at register 40000, 0 or 50000, nor at the start of the dump (register ${start})`,
  );
}
