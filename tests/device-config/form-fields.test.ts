import type { RegisterOptions } from 'react-hook-form';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/load-node.ts';
import type { Codec } from '../../src/codec/types.ts';
import { buildConfigFrame, decodeConfiguration } from '../../src/device-config/decode-values.ts';
import { encodeConfiguration } from '../../src/device-config/encode-form.ts';
import { buildForm, type FormField, formDefaults } from '../../src/device-config/form-fields.ts';
import { layoutRows } from '../../src/device-config/layout-values.ts';
import { checkPassword } from '../../src/device-config/password.ts';
import { bundledProducts } from './bundled-products.ts';

let codec: Codec;
beforeAll(async () => {
  codec = await loadCodec();
});

const hybrid = bundledProducts().find((p) => p.modelId === 'HX-5000');
if (!hybrid) throw new Error('HX-5000 missing from the catalogue');
const { config } = hybrid;

function setUp() {
  const frame = buildConfigFrame(codec, config, 0x81, 255);
  const decoded = decodeConfiguration(codec, config, frame);
  const groups = buildForm(config, decoded, { now: () => new Date(2026, 10, 21, 6, 7) });
  const field = (name: string): FormField => {
    const found = groups.flatMap((g) => g.fields).find((f) => f.name === name);
    if (!found) throw new Error(`no field ${name}`);
    return found;
  };
  const write = (values: Record<string, unknown>) =>
    encodeConfiguration(codec, config, groups, values, frame);
  return { frame, decoded, groups, field, write };
}

describe('values → form', () => {
  it('gives number fields their device value, unit and react-hook-form rules with messages', () => {
    const { field } = setUp();
    expect(field('maxChargeCurrent')).toMatchObject({
      label: 'Max charge current',
      kind: 'number',
      unit: 'A',
      defaultValue: 80,
      disabled: false,
      rules: {
        valueAsNumber: true,
        required: { value: true, message: 'Max charge current is required' },
        min: { value: 0, message: 'Max charge current must be at least 0 A' },
        max: { value: 100, message: 'Max charge current must be at most 100 A' },
      },
    });
  });

  it('hands react-hook-form rules it accepts as register options', () => {
    const { field } = setUp();
    // Type-checked by tsc: a change that breaks assignability to RegisterOptions fails the build.
    const numberOptions: RegisterOptions = field('reconnectDelay').rules;
    const textOptions: RegisterOptions = field('deviceName').rules;
    expect(numberOptions.required).toBeUndefined();
    expect(textOptions.required).toEqual({ value: true, message: 'Device name is required' });
  });

  it('bounds a number without min/max by what its field can hold', () => {
    expect(setUp().field('calGridVoltage').rules.min?.value).toBe(-32.768);
  });

  it('gives text fields minLength, maxLength and the rex pattern', () => {
    const { rules, defaultValue } = setUp().field('deviceName');
    expect(defaultValue).toBe('HX5000');
    expect(rules.minLength?.value).toBe(3);
    expect(rules.maxLength?.value).toBe(12);
    expect(rules.pattern?.value.test('Roof 2')).toBe(true);
    expect(rules.pattern?.value.test('Roof#2')).toBe(false);
  });

  it('disables fields not flagged active', () => {
    const { field } = setUp();
    expect(field('lcdBacklight')).toMatchObject({ disabled: true, rules: { disabled: true } });
    expect(field('firmwareVersion')).toMatchObject({ disabled: true, defaultValue: 'v2.4.1' });
  });

  it('fills autoInput date-times with the current time as YYYY-MM-DDTHH:MM and keeps the device value', () => {
    const { field } = setUp();
    expect(field('deviceClock')).toMatchObject({
      kind: 'datetime-local',
      defaultValue: '2026-11-21T06:07',
      deviceValue: '2025-01-01T00:00',
    });
  });

  it('renders the password as a secret field holding the device password', () => {
    const { groups, field } = setUp();
    expect(field('password')).toMatchObject({ kind: 'password', defaultValue: '0000' });
    expect(formDefaults(groups).password).toBe('0000');
  });
});

describe('form → frame', () => {
  it('writes a date-time into its year, month, day, hour and minute bytes', () => {
    const result = setUp().write({ deviceClock: '2026-11-21T18:45' });
    if (!result.ok) throw new Error(result.errors[0]?.message);
    const { values } = decodeConfiguration(codec, config, result.frame);
    expect([
      values.clockYear,
      values.clockMonth,
      values.clockDay,
      values.clockHour,
      values.clockMinute,
    ]).toEqual([2026, 11, 21, 18, 45]);
    expect(values.deviceClockTime).toBe('6:45 pm');
  });

  it('writes text as character codes padded with 0, and a new password the device then accepts', () => {
    const result = setUp().write({ deviceName: 'Garage', password: 's3cret!' });
    if (!result.ok) throw new Error(result.errors[0]?.message);
    const decoded = decodeConfiguration(codec, config, result.frame);
    expect(decoded.values.deviceName).toBe('Garage');
    expect(decoded.raw.name_06).toBe(0);
    expect(checkPassword(codec, 's3cret!', decoded.raw)).toBe(true);
    expect(checkPassword(codec, 's3cret', decoded.raw)).toBe(false);
  });

  it('names every bad field and writes nothing', () => {
    const { write, frame } = setUp();
    const before = Array.from(frame);
    const result = write({
      maxChargeCurrent: 120,
      deviceName: 'ab',
      password: 'x'.repeat(17),
      deviceClock: '2026-02-30T10:00',
      gridVoltageHigh: '',
      modbusAddress: 'twelve',
    });
    expect(result).toEqual({
      ok: false,
      errors: [
        { field: 'deviceName', message: 'Device name needs at least 3 characters' },
        { field: 'deviceClock', message: 'Device date and time is not a real date and time' },
        { field: 'password', message: 'Configuration password takes at most 16 characters' },
        { field: 'maxChargeCurrent', message: 'Max charge current must be at most 100 A' },
        { field: 'gridVoltageHigh', message: 'Grid over-voltage trip is required' },
        { field: 'modbusAddress', message: 'Modbus address must be a number' },
      ],
    });
    expect(Array.from(frame)).toEqual(before);
  });

  it('refuses an opcode that is not a byte instead of writing it wrapped', () => {
    const { groups, frame } = setUp();
    const encode = () => encodeConfiguration(codec, config, groups, {}, frame, { opcode: 0x102 });
    expect(encode).toThrow(
      expect.objectContaining({
        code: 'invalid-opcode',
        message: 'opcode 258 is not a whole number from 0 to 255',
      }),
    );
  });

  it('ignores values for disabled fields', () => {
    const { write, frame } = setUp();
    const result = write({ lcdBacklight: 5, workModeText: 'Backup' });
    expect(result.ok && Array.from(result.frame)).toEqual(Array.from(frame));
  });

  it('rejects a password character the device cannot store', () => {
    const result = setUp().write({ password: 'pass€word' });
    expect(result.ok ? [] : result.errors.map((e) => e.field)).toEqual(['password']);
  });
});

describe('layout → display values', () => {
  it('applies round, prepend and append, and shows static values', () => {
    const { decoded } = setUp();
    const rows = layoutRows(config, decoded.values);
    expect(rows[0]?.map((c) => c.text)).toEqual(['Solar', '3128 W', '385.2 V']);
    expect(rows[5]?.map((c) => c.text)).toEqual(['Energy', 'today 12.4 kWh', 'total 18343 kWh']);
  });

  it('shows n/a for a value that is missing', () => {
    const rows = layoutRows(
      { ...config, layout: { rows: [{ cols: [{ refData: 'pvPower', append: ' W' }] }] } },
      {},
    );
    expect(rows[0]?.[0]?.text).toBe('n/a W');
  });
});
