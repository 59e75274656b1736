import { PASSWORD_ITEMS } from '../password.ts';
import { field, ProductBuilder, shown } from './product-builder.ts';

/** Why the factory calibration group is shown but never changed in the field. */
export const FACTORY_NOTE =
  'Measured for this unit at the end of the production line: these values correct its readings, so they are shown here and never changed in the field.';

/** Firmware version bytes, the device name (12 characters), the clock and the password. */
export function addIdentityItems(
  b: ProductBuilder,
  defaults: { firmware: [number, number, number]; name: string; password: string },
): void {
  b.raw('fwMajor', 'u8', defaults.firmware[0], { readOnly: true })
    .raw('fwMinor', 'u8', defaults.firmware[1], { readOnly: true })
    .raw('fwPatch', 'u8', defaults.firmware[2], { readOnly: true })
    .text('name', 12, defaults.name)
    .raw('clockYear', 's16le', 2025)
    .raw('clockMonth', 'u8', 1)
    .raw('clockDay', 'u8', 1)
    .raw('clockHour', 'u8', 0)
    .raw('clockMinute', 'u8', 0)
    .password(defaults.password);
}

/** Derived items every product shares: version text, device name, clock and password strings. */
export function addIdentityDerived(b: ProductBuilder): void {
  b.other('firmwareVersion', [
    {
      type: 'ass',
      parts: [
        { text: 'v' },
        { ref: 'fwMajor' },
        { text: '.' },
        { ref: 'fwMinor' },
        { text: '.' },
        { ref: 'fwPatch' },
      ],
    },
  ])
    .other('deviceName', [{ type: 'cts', refs: ProductBuilder.textRefs('name', 12) }])
    .other('deviceClock', [
      {
        type: 'ass',
        parts: [
          { ref: 'clockYear', pad: 4 },
          { text: '-' },
          { ref: 'clockMonth', pad: 2 },
          { text: '-' },
          { ref: 'clockDay', pad: 2 },
          { text: 'T' },
          { ref: 'clockHour', pad: 2 },
          { text: ':' },
          { ref: 'clockMinute', pad: 2 },
        ],
      },
    ])
    .other('deviceClockTime', [{ type: 'cdt', ref: 'deviceClock' }])
    .other('password', [{ type: 'cts', refs: [...PASSWORD_ITEMS] }]);
}

/** The Device, Clock and Security groups every product shows. */
export function addIdentityGroups(b: ProductBuilder): void {
  b.group('Device', [
    field('deviceName', {
      label: 'Device name',
      required: true,
      minLength: 3,
      maxLength: 12,
      rex: '^[\\p{L}\\p{M}\\p{N} _-]*$',
      note: 'Letters of any language, digits, spaces, _ and -. Up to 12 bytes: ü, é and most other letters beyond A–Z take 2.',
    }),
    shown('firmwareVersion', 'Firmware'),
  ])
    .group('Clock', [
      field('deviceClock', { label: 'Device date and time', required: true, autoInput: true }),
    ])
    .group('Security', [
      field('password', {
        label: 'Configuration password',
        required: true,
        secret: true,
        minLength: 4,
        maxLength: 16,
        rex: '^[!-~]*$',
        note: 'Letters, digits and punctuation, no spaces: the device asks for it from the next connection on.',
      }),
    ]);
}
