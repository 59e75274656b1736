import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { catalogueSchema, serialNumberPattern } from '../../contracts/catalogue.ts';
import { installDeviceQuerySchema } from '../../contracts/devices.ts';

describe('one serial-number pattern', () => {
  it('the device query accepts exactly the serials the catalogue pattern accepts', () => {
    const serialLike = fc.oneof(
      fc.stringMatching(serialNumberPattern),
      fc.stringMatching(/^[A-Z0-9-]{1,20}$/),
      fc.string({ maxLength: 20 }),
    );
    fc.assert(
      fc.property(serialLike, (serial) => {
        const accepted = installDeviceQuerySchema.safeParse({ serial }).success;
        expect(accepted).toBe(serialNumberPattern.test(serial.trim()));
      }),
      { numRuns: 300 },
    );
  });

  it("fits every bundled model's serial prefix", () => {
    for (const file of ['public/devices-list.json', 'public/devices-list-e1.json']) {
      const list = catalogueSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
      for (const entry of Object.values(list.devicesList)) {
        const serial = `${entry.serialPrefix}-24-000123`;
        expect(serialNumberPattern.test(serial)).toBe(true);
        expect(installDeviceQuerySchema.safeParse({ serial }).success).toBe(true);
      }
    }
  });
});
