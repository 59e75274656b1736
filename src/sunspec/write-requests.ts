import type { WriteRange } from './encode-model.ts';
import { SunSpecError } from './sunspec-error.ts';

/** Modbus function 16: Write Multiple Registers. */
export const WRITE_MULTIPLE_REGISTERS = 0x10;

/** One Modbus RTU request, ready to send or copy. */
export interface WriteRequest {
  unit: number;
  address: number;
  count: number;
  /** Unit, function, address, count, byte count, data, then the CRC low byte first. */
  frame: Uint8Array;
}

/**
 * Builds the function-16 request for each range, sealed with CRC-16/MODBUS from `crc16` (the Wasm
 * codec's, in the app and the command line).
 *
 * @example
 * writeRequests([{ address: 40071, registers: Uint16Array.of(9000) }], 1, codec.crc16);
 * // frame 01 10 9c 87 00 01 02 23 28 + CRC
 * @throws SunSpecError 'bad-request' for a unit outside 0..247 or an address past 65535.
 */
export function writeRequests(
  ranges: readonly WriteRange[],
  unit: number,
  crc16: (bytes: Uint8Array) => number,
): WriteRequest[] {
  if (!Number.isInteger(unit) || unit < 0 || unit > 247) {
    throw new SunSpecError('bad-request', `unit ${unit} is not a Modbus unit address (0 to 247)`);
  }
  return ranges.map(({ address, registers }) => {
    const count = registers.length;
    if (address + count - 1 > 0xffff) {
      throw new SunSpecError(
        'bad-request',
        `register ${address + count - 1} is past the Modbus address space`,
      );
    }
    const frame = new Uint8Array(9 + 2 * count);
    frame.set([unit, WRITE_MULTIPLE_REGISTERS, address >> 8, address & 0xff, 0, count, 2 * count]);
    registers.forEach((r, i) => {
      frame[7 + 2 * i] = r >> 8;
      frame[8 + 2 * i] = r & 0xff;
    });
    const crc = crc16(frame.subarray(0, frame.length - 2));
    frame[frame.length - 2] = crc & 0xff;
    frame[frame.length - 1] = crc >> 8;
    return { unit, address, count, frame };
  });
}

/** Lower-case hex with a space between bytes, as Modbus tools show frames. */
export const frameHex = (frame: Uint8Array): string =>
  Array.from(frame, (b) => b.toString(16).padStart(2, '0')).join(' ');
