import { composeModel } from './compose-model.ts';
import type { ModelCatalogue } from './decode-device.ts';
import { END_MODEL_ID } from './decode-device.ts';
import { DEMO_VALUES, DEMO_VENDOR_MODEL } from './demo-values.ts';
import type { PointsJson } from './device-json.ts';
import { DEFAULT_BASE, type RegisterDump, SUNS_MARKER } from './register-dump.ts';
import { SunSpecError } from './sunspec-error.ts';
import { WRITE_MULTIPLE_REGISTERS } from './write-requests.ts';

/**
 * A simulated SunSpec device: the register map of a three-phase hybrid inverter with an MPPT
 * extension, DER models and a battery, built from the bundled definitions. It answers reads with
 * its registers and applies function-16 write requests, checking them as a device would.
 */
export class DemoSunSpecDevice {
  readonly start = DEFAULT_BASE;
  readonly registers: Uint16Array;

  constructor(catalogue: ModelCatalogue) {
    const words: number[] = [...SUNS_MARKER];
    for (const [id, values] of DEMO_VALUES) {
      const model = catalogue.get(id);
      if (!model)
        throw new SunSpecError('bad-definition', `the demo device needs model ${id}, which is not loaded`);
      words.push(...composeModel(model, values as PointsJson));
    }
    words.push(...DEMO_VENDOR_MODEL, END_MODEL_ID, 0);
    this.registers = Uint16Array.from(words);
  }

  /** Every register, as a dump that starts at the marker. */
  read(): RegisterDump {
    return { start: this.start, registers: this.registers.slice() };
  }

  /**
   * Applies one Modbus RTU write request (function 16).
   * @throws SunSpecError 'bad-request' for a bad CRC, another function, a wrong byte count or an
   *   address outside the map; nothing is written then.
   */
  write(frame: Uint8Array, crc16: (bytes: Uint8Array) => number): void {
    if (frame.length < 11) throw new SunSpecError('bad-request', `a ${frame.length}-byte frame is too short`);
    const crc = crc16(frame.subarray(0, frame.length - 2));
    if (
      (frame[frame.length - 2] as number) !== (crc & 0xff) ||
      (frame[frame.length - 1] as number) !== crc >> 8
    ) {
      throw new SunSpecError('bad-request', 'the request fails its CRC');
    }
    if (frame[1] !== WRITE_MULTIPLE_REGISTERS) {
      throw new SunSpecError('bad-request', `function ${frame[1]} is not Write Multiple Registers (16)`);
    }
    const address = ((frame[2] as number) << 8) | (frame[3] as number);
    const count = ((frame[4] as number) << 8) | (frame[5] as number);
    if (frame[6] !== count * 2 || frame.length !== 9 + count * 2) {
      throw new SunSpecError('bad-request', 'the byte count does not match the register count');
    }
    const at = address - this.start;
    if (at < 2 || at + count > this.registers.length) {
      throw new SunSpecError(
        'bad-request',
        `registers ${address} to ${address + count - 1} are outside the device's map`,
      );
    }
    for (let i = 0; i < count; i++) {
      this.registers[at + i] = ((frame[7 + 2 * i] as number) << 8) | (frame[8 + 2 * i] as number);
    }
  }
}
