import { beforeAll, describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/load-node.ts';
import type { Codec } from '../../src/codec/types.ts';
import { configChanges, SECRET_CHANGED, valueText } from '../../src/device-config/config-changes.ts';
import { buildConfigFrame, decodeConfiguration } from '../../src/device-config/decode-values.ts';
import { EXCLUDED_GROUPS, FACTORY_GROUP } from '../../src/device-config/excluded-groups.ts';
import {
  AUTO_INPUT_NOTE,
  buildForm,
  type FormField,
  readOnlyGroups,
} from '../../src/device-config/form-fields.ts';
import {
  changedFields,
  followUntouchedClocks,
  formProblems,
  sameValue,
} from '../../src/device-config/form-state.ts';
import { loadDeviceConfig } from '../../src/device-config/load-config.ts';
import { dateTimeText } from '../../src/device-config/time-format.ts';
import { bundledProducts, sampleConfig } from './bundled-products.ts';

let codec: Codec;
beforeAll(async () => {
  codec = await loadCodec();
});

function formOf(modelId: string) {
  const product = bundledProducts().find((p) => p.modelId === modelId);
  if (!product) throw new Error(`${modelId} missing`);
  const frame = buildConfigFrame(codec, product.config, 0x81, 255);
  const decoded = decodeConfiguration(codec, product.config, frame);
  const groups = buildForm(product.config, decoded, {
    excludedGroups: EXCLUDED_GROUPS,
    now: () => new Date(2026, 10, 25, 2, 14),
  });
  const fields = groups.flatMap((g) => g.fields);
  const field = (name: string): FormField => {
    const found = fields.find((f) => f.name === name);
    if (!found) throw new Error(`no field ${name}`);
    return found;
  };
  return { product, decoded, groups, fields, field };
}

describe('the catalogue says how a setting reads, and the form asks for it that way', () => {
  it('makes an enumeration a select of its labels, with no firmware numbers in the label', () => {
    const { field } = formOf('HX-5000');
    expect(field('workMode')).toMatchObject({
      label: 'Work mode',
      display: {
        type: 'choice',
        options: [
          { value: '0', label: 'Self-use' },
          { value: '1', label: 'Feed-in first' },
          { value: '2', label: 'Backup' },
          { value: '3', label: 'Off-grid' },
        ],
      },
    });
    expect(field('workMode').limits).toBeUndefined();
  });

  it('makes times of day time pickers, kept in seconds or minutes after midnight as the device keeps them', () => {
    const { field } = formOf('HX-5000');
    expect(field('chargeStart')).toMatchObject({
      label: 'Grid charge starts at',
      display: { type: 'time-of-day', unit: 'seconds' },
      deviceValue: 7200,
    });
    expect(field('dischargeStart')).toMatchObject({ display: { type: 'time-of-day', unit: 'minutes' } });
    expect(valueText(field('chargeStart'), 7200)).toBe('2:00 am');
    expect(valueText(field('dischargeStart'), 1020)).toBe('5:00 pm');
  });

  it('shows every number field its limits in words before anything is written', () => {
    const { field } = formOf('HX-5000');
    expect(field('maxChargeCurrent').limits).toBe('0 to 100 A');
    expect(field('gridVoltageLow').limits).toBe('150 to 230 V');
    expect(field('equalizeDuration')).toMatchObject({
      limits: '0 to 600 min',
      display: { type: 'duration' },
    });
    expect(field('deviceName')).toMatchObject({
      limits: '3 to 12 characters',
      note: 'Letters of any language, digits, spaces, _ and -. Up to 12 bytes: ü, é and most other letters beyond A–Z take 2.',
    });
  });

  it('says why a greyed setting cannot be changed, and that the clock field sets the device clock', () => {
    const { field } = formOf('HX-5000');
    expect(field('lcdBacklight')).toMatchObject({ disabled: true });
    expect(field('lcdBacklight').note).toMatch(/does not take it over Bluetooth/);
    expect(field('deviceClock')).toMatchObject({ note: AUTO_INPUT_NOTE, defaultValue: '2026-11-25T02:14' });
  });

  it('gives no field twice: the words of a setting are the setting itself', () => {
    for (const modelId of ['HX-5000', 'BX-10', 'E1-40']) {
      const product = bundledProducts().find((p) => p.modelId === modelId);
      if (!product) throw new Error(`${modelId} missing`);
      const { fields } = formOf(modelId);
      const shownTwice = fields.filter((f) =>
        product.config.formData.some((g) => g.dataObjs.some((o) => o.display === f.name)),
      );
      expect(shownTwice, modelId).toEqual([]);
      expect(
        fields.map((f) => f.label).filter((l) => /\(\d|after midnight/.test(l)),
        modelId,
      ).toEqual([]);
    }
  });

  it('shows the factory calibration with what the device holds and why it is not changed', () => {
    const { product, decoded } = formOf('HX-5000');
    const [factory] = readOnlyGroups(product.config, decoded, EXCLUDED_GROUPS);
    expect(factory).toMatchObject({
      title: FACTORY_GROUP,
      facts: [
        { name: 'calGridVoltage', label: 'Grid voltage correction', value: '1.25' },
        { name: 'calPvVoltage', label: 'PV voltage correction', value: '-0.8' },
      ],
    });
    expect(factory?.note).toMatch(/never changed in the field/);
  });
});

describe('what a change reads as, in the panel and the history', () => {
  it('does not count the clock filled in from the phone as a change on connecting; an edit of it is one', () => {
    const { groups, field } = formOf('HX-5000');
    const values = Object.fromEntries(groups.flatMap((g) => g.fields.map((f) => [f.name, f.defaultValue])));
    // The phone's time differs from the device's, and still nothing was changed by the person.
    expect(field('deviceClock').defaultValue).not.toEqual(field('deviceClock').deviceValue);
    expect(changedFields(groups, values)).toEqual([]);
    expect(changedFields(groups, { ...values, deviceClock: '2027-01-02T08:30' }).map((f) => f.name)).toEqual([
      'deviceClock',
    ]);
  });

  it('compares numbers as numbers', () => {
    const { field } = formOf('HX-5000');
    expect(sameValue(field('batteryFloatVoltage'), '54.00', 54)).toBe(true);
    expect(sameValue(field('batteryFloatVoltage'), '', 54)).toBe(false);
  });

  it('names what a value breaks', () => {
    const { groups } = formOf('HX-5000');
    expect(formProblems(groups, { maxChargeCurrent: 120, workMode: 2 })).toEqual({
      maxChargeCurrent: 'Max charge current must be at most 100 A',
    });
  });

  it('records labels, 12-hour times, date-times and units, and never a password', () => {
    const { groups } = formOf('HX-5000');
    const changes = configChanges(
      groups,
      {
        workMode: 0,
        chargeStart: 7200,
        deviceClock: '2025-01-01T00:00',
        batteryFloatVoltage: 54,
        password: '0000',
      },
      {
        workMode: 2,
        chargeStart: 12600,
        deviceClock: '2026-11-25T14:05',
        batteryFloatVoltage: 55.5,
        password: 'n3w!',
      },
    );
    expect(changes.map((c) => `${c.label}: ${c.oldValue} → ${c.newValue}`)).toEqual([
      'Device date and time: Jan 1, 2025, 12:00 am → Nov 25, 2026, 2:05 pm',
      `Configuration password: ${SECRET_CHANGED} → ${SECRET_CHANGED}`,
      'Float voltage: 54 V → 55.5 V',
      'Work mode: Self-use → Backup',
      'Grid charge starts at: 2:00 am → 3:30 am',
    ]);
  });

  it('writes date-times in 12-hour form with am and pm (specification §9)', () => {
    expect(dateTimeText('2026-11-25T00:05')).toBe('Nov 25, 2026, 12:05 am');
    expect(dateTimeText('2026-01-01T12:00')).toBe('Jan 1, 2026, 12:00 pm');
    expect(dateTimeText('2025-02-30T10:00')).toBe('n/a');
  });
});

describe('loading a display that cannot show its field', () => {
  // biome-ignore lint/suspicious/noExplicitAny: tests break arbitrary parts of a JSON file.
  const messagesFor = (display: string, change: (json: Record<string, any>) => void = () => {}) => {
    // biome-ignore lint/suspicious/noExplicitAny: as above.
    const json = sampleConfig() as Record<string, any>;
    json.formData[0].dataObjs.push({ dataId: 'mode', active: true, display });
    change(json);
    const result = loadDeviceConfig('x-to-form.json', json);
    return result.ok ? [] : result.issues.map((i) => i.message);
  };

  it('accepts a vfa item that lists the field', () => {
    expect(messagesFor('modeText')).toEqual([]);
  });

  it('names an item that does not exist or shows another value', () => {
    expect(messagesFor('ghost')[0]).toMatch(/display: "ghost" names no otherData item$/);
    expect(
      messagesFor('modeText', (json) => {
        json.otherData[0].processData[0].ref = 'battVoltage';
      })[0],
    ).toMatch(/display: "modeText" does not show "mode"$/);
  });
});

describe('a clock the person has not edited', () => {
  it('follows the phone on a new read, and stays as typed once edited', () => {
    const { product, decoded } = formOf('HX-5000');
    const at = (minute: number) =>
      buildForm(product.config, decoded, {
        excludedGroups: EXCLUDED_GROUPS,
        now: () => new Date(2026, 10, 25, 2, minute),
      });
    const before = at(14);
    const after = at(15);
    const values = Object.fromEntries(before.flatMap((g) => g.fields.map((f) => [f.name, f.defaultValue])));
    const followed = followUntouchedClocks(before, after, values);
    expect(followed.deviceClock).toBe('2026-11-25T02:15');
    expect(changedFields(after, followed)).toEqual([]);
    const edited = followUntouchedClocks(before, after, { ...values, deviceClock: '2027-01-02T08:30' });
    expect(edited.deviceClock).toBe('2027-01-02T08:30');
    expect(changedFields(after, edited).map((f) => f.name)).toEqual(['deviceClock']);
  });
});
