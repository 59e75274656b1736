import { scaleRaw, unscale } from '../codec/scale.ts';
import type { DeviceConfig } from './config-schema.ts';
import type { FormField, FormGroupModel } from './form-fields.ts';
import { type Choice, settingChoices, shownValue } from './setting-choices.ts';
import { toNumber, validateField } from './validate-field.ts';

/**
 * Settings templates over a product's form (framework-free: the app and the service share it).
 * A template holds the settings an installer sets alike on many devices: every enabled form
 * field except the password (a secret) and the clock (each device's own time). Values are in the
 * form's units: numbers for number fields, text for text fields.
 */

/** A template's settings: field name → value in the form's units. */
export type TemplateValues = Readonly<Record<string, number | string>>;

/** A setting a template may not hold or a value it may not give, named by the setting. */
export interface TemplateProblem {
  field: string;
  /** The setting's label, or its name when the product has no such setting. */
  label: string;
  message: string;
}

/** One setting a template would change on a device, as the form shows it (with its unit). */
export interface SettingDiff {
  field: string;
  label: string;
  current: string;
  template: string;
}

/** Whether a field can be part of a template: enabled, writable, neither secret nor the clock. */
export function isTemplatable(field: FormField): boolean {
  return (
    !field.disabled &&
    field.target.kind !== 'none' &&
    field.kind !== 'password' &&
    field.kind !== 'datetime-local'
  );
}

/**
 * The fields of a form a template may hold, by name.
 * @example templatableFields(groups).has('maxChargeCurrent') // true; .has('password') // false
 */
export function templatableFields(groups: readonly FormGroupModel[]): Map<string, FormField> {
  return new Map(
    groups
      .flatMap((group) => group.fields)
      .filter(isTemplatable)
      .map((field) => [field.name, field]),
  );
}

/**
 * A template from form values (the device as read, or the form as edited): every templatable
 * field, numbers as numbers; empty fields are left out.
 * @example templateFromValues(groups, formValues) // { maxChargeCurrent: 40, workMode: 2, … }
 */
export function templateFromValues(
  groups: readonly FormGroupModel[],
  values: Readonly<Record<string, unknown>>,
): Record<string, number | string> {
  const settings: Record<string, number | string> = {};
  for (const field of templatableFields(groups).values()) {
    const value = values[field.name];
    if (value === undefined || value === null || value === '') continue;
    if (field.kind === 'number') {
      const n = toNumber(value);
      if (typeof n === 'number') settings[field.name] = n;
    } else settings[field.name] = String(value);
  }
  return settings;
}

/**
 * Every setting of a template that the product lacks (or that a template may not hold), and
 * every value outside the form's rules (the limits of the product's current catalogue), named.
 * An empty list: the template can be written to this product.
 * @example checkTemplate(groups, { maxChargeCurrent: 120, turbo: 1 })
 * // [{ field: 'maxChargeCurrent', message: 'Max charge current must be at most 100 A' },
 * //  { field: 'turbo', message: 'turbo: this product has no such setting' }]
 */
export function checkTemplate(
  groups: readonly FormGroupModel[],
  settings: TemplateValues,
): TemplateProblem[] {
  const fields = templatableFields(groups);
  const all = new Map(groups.flatMap((group) => group.fields).map((field) => [field.name, field]));
  const problems: TemplateProblem[] = [];
  for (const [name, value] of Object.entries(settings)) {
    const field = fields.get(name);
    if (!field) {
      const known = all.get(name);
      problems.push(
        known
          ? { field: name, label: known.label, message: `${known.label} cannot be part of a template` }
          : { field: name, label: name, message: `${name}: this product has no such setting` },
      );
      continue;
    }
    if (field.kind === 'number' && typeof value !== 'number') {
      problems.push({ field: name, label: field.label, message: `${field.label} must be a number` });
      continue;
    }
    if (field.kind !== 'number' && typeof value !== 'string') {
      problems.push({ field: name, label: field.label, message: `${field.label} must be text` });
      continue;
    }
    const problem = validateField(field, value);
    if (problem) problems.push({ field: name, label: field.label, message: problem });
  }
  return problems;
}

/** A number as the device will hold it: rounded to the raw step of its item. */
function stored(config: DeviceConfig, field: FormField, value: number | string): number | string {
  if (field.target.kind !== 'raw' || typeof value !== 'number') return value;
  const { name } = field.target;
  const item = config.rawData.find((raw) => raw.name === name);
  return item ? scaleRaw(unscale(value, item.multiplier), item.multiplier) : value;
}

const withUnit = (text: string, unit: string | undefined) => (text !== '' && unit ? `${text} ${unit}` : text);

/**
 * The settings a template would change on a device: label, the device's current value and the
 * template's, as the form shows them (choices by their text, numbers with their unit). Settings
 * the template gives as the device already holds them are left out; so are settings the
 * template holds that the form lacks (`checkTemplate` names those).
 * @example templateDiff(config, groups, settings, deviceValues)
 * // [{ field: 'maxChargeCurrent', label: 'Max charge current', current: '40 A', template: '35 A' }]
 */
export function templateDiff(
  config: DeviceConfig,
  groups: readonly FormGroupModel[],
  settings: TemplateValues,
  deviceValues: Readonly<Record<string, unknown>>,
  choices: Readonly<Record<string, readonly Choice[]>> = settingChoices(config),
): SettingDiff[] {
  const diffs: SettingDiff[] = [];
  for (const field of templatableFields(groups).values()) {
    const wanted = settings[field.name];
    if (wanted === undefined) continue;
    const current = deviceValues[field.name];
    const next = stored(config, field, wanted);
    const same =
      field.kind === 'number' ? toNumber(current) === toNumber(next) : String(current ?? '') === String(next);
    if (same) continue;
    diffs.push({
      field: field.name,
      label: field.label,
      current: withUnit(shownValue(choices[field.name], current), field.unit),
      template: withUnit(shownValue(choices[field.name], next), field.unit),
    });
  }
  return diffs;
}

/**
 * The form values that write a template: its settings that the form may write, and nothing else,
 * so that `encodeConfiguration` over the frame read from the device changes only those and keeps
 * every other byte as the device sent it.
 */
export function templateWriteValues(
  groups: readonly FormGroupModel[],
  settings: TemplateValues,
): Record<string, number | string> {
  const fields = templatableFields(groups);
  return Object.fromEntries(Object.entries(settings).filter(([name]) => fields.has(name)));
}

/** What writing a template to a device would do: why it cannot be written, and what it changes. */
export interface TemplatePreview {
  problems: TemplateProblem[];
  changes: SettingDiff[];
}

/**
 * A template against the device's values: its problems (`checkTemplate`) and its changes
 * (`templateDiff`). It can be written when it has no problem and changes something.
 * @example templatePreview(config, groups, { maxChargeCurrent: 35 }, deviceValues)
 * // { problems: [], changes: [{ field: 'maxChargeCurrent', label: 'Max charge current', current: '40 A', template: '35 A' }] }
 */
export function templatePreview(
  config: DeviceConfig,
  groups: readonly FormGroupModel[],
  settings: TemplateValues,
  deviceValues: Readonly<Record<string, unknown>>,
): TemplatePreview {
  return {
    problems: checkTemplate(groups, settings),
    changes: templateDiff(config, groups, settings, deviceValues),
  };
}
