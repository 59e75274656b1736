import { scaleRaw } from '../codec/scale.ts';
import type { DataObj, DeviceConfig } from './config-schema.ts';
import type { DecodedConfig } from './decode-values.ts';
import { type DerivedInverse, derivedInverse } from './derived-inverse.ts';
import { fieldRange } from './field-range.ts';
import type { ConfigValue } from './process-data.ts';
import { type Choice, settingChoices } from './setting-choices.ts';
import { formatAutoInput } from './time-format.ts';

/** A validation rule with its message, in react-hook-form's `{ value, message }` shape. */
export interface Rule<T> {
  value: T;
  message: string;
}

interface CommonRules {
  required?: Rule<boolean>;
  disabled?: boolean;
}

/** Rules of a number field (react-hook-form converts its input with `valueAsNumber`). */
export interface NumberRules extends CommonRules {
  valueAsNumber: true;
  min?: Rule<number>;
  max?: Rule<number>;
  minLength?: never;
  maxLength?: never;
  pattern?: never;
}

/** Rules of a text, password or date-time field. */
export interface TextRules extends CommonRules {
  valueAsNumber?: never;
  min?: never;
  max?: never;
  minLength?: Rule<number>;
  maxLength?: Rule<number>;
  pattern?: Rule<RegExp>;
}

/** Assignable to react-hook-form's `RegisterOptions`: pass it to `register(name, rules)`. */
export type FieldRules = NumberRules | TextRules;

export type InputKind = 'number' | 'text' | 'password' | 'datetime-local';

/**
 * How a number field is asked for and shown in words, from the catalogue's `display` item (or an
 * enumeration's `vfa` item): a select of labels, a time of day kept in seconds or minutes after
 * midnight, or a number of minutes also read as a duration.
 */
export type FieldDisplay =
  | { type: 'choice'; options: Choice[] }
  | { type: 'time-of-day'; unit: 'seconds' | 'minutes' }
  | { type: 'duration' };

/** What an autoInput field says about itself: it is filled with this phone's clock, and a write sets the device's. */
export const AUTO_INPUT_NOTE =
  "Filled in with this phone's date and time: Write sets the device's clock to it. Change it to set another time.";

/** What the form needs to render and check one field. */
export interface FormField {
  /** Field name = the item's dataId. */
  name: string;
  label: string;
  kind: InputKind;
  unit?: string;
  /** The value the form starts with (the current date-time for autoInput fields). */
  defaultValue: ConfigValue;
  /** The value the device holds now. */
  deviceValue: ConfigValue;
  disabled: boolean;
  rules: FieldRules;
  /** Where an edited value goes: a rawData item, or the raw items behind a derived one. */
  target: { kind: 'raw'; name: string } | DerivedInverse | { kind: 'none' };
  /** How a number is asked for and shown in words; absent for a plain number or text. */
  display?: FieldDisplay;
  /** What the field accepts, in words, before anything is written: `0 to 100 A`, `3 to 12 characters`. */
  limits?: string;
  /** The catalogue's line about the field: what it means, or why it cannot be changed here. */
  note?: string;
}

export interface FormGroupModel {
  title: string;
  fields: FormField[];
}

export interface FormOptions {
  /** Group titles that get no controls. */
  excludedGroups?: readonly string[];
  /** Clock for autoInput fields; defaults to the real one. */
  now?: () => Date;
}

/** `battVoltageMax` → `Batt voltage max`, when a dataObj has no label. */
function labelOf(obj: DataObj): string {
  if (obj.label) return obj.label;
  const words = obj.dataId
    .replace(/_/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function numberRules(
  obj: DataObj,
  label: string,
  unit: string,
  range: { min: number; max: number },
): FieldRules {
  // Without explicit bounds, the field's own range still holds, so the error is named here, not at encode.
  const min = obj.min ?? range.min;
  const max = obj.max ?? range.max;
  return {
    valueAsNumber: true,
    min: { value: min, message: `${label} must be at least ${min}${unit}` },
    max: { value: max, message: `${label} must be at most ${max}${unit}` },
  };
}

function textRules(obj: DataObj, label: string, capacity: number | undefined): TextRules {
  const rules: TextRules = {};
  if (obj.minLength !== undefined)
    rules.minLength = {
      value: obj.minLength,
      message: `${label} needs at least ${obj.minLength} characters`,
    };
  const maxLength = obj.maxLength ?? capacity;
  if (maxLength !== undefined)
    rules.maxLength = { value: maxLength, message: `${label} takes at most ${maxLength} characters` };
  // Unicode patterns, so a rule may name letters of every language (\p{L}).
  if (obj.rex !== undefined)
    rules.pattern = { value: new RegExp(obj.rex, 'u'), message: `${label} is not valid` };
  return rules;
}

const DISPLAY_STEPS = {
  tfm: { type: 'time-of-day', unit: 'seconds' },
  itd: { type: 'time-of-day', unit: 'minutes' },
  its: { type: 'duration' },
} as const satisfies Record<string, FieldDisplay>;

/** How a raw item is shown in words: its `display` item's step, else an enumeration's `vfa` list. */
function displayOf(config: DeviceConfig, obj: DataObj): FieldDisplay | undefined {
  const shown = obj.display ? config.otherData.find((o) => o.name === obj.display) : undefined;
  const step = shown?.processData.length === 1 ? shown.processData[0] : undefined;
  if (step && step.type in DISPLAY_STEPS) return DISPLAY_STEPS[step.type as keyof typeof DISPLAY_STEPS];
  const options = settingChoices(config)[obj.dataId];
  return options ? { type: 'choice', options } : undefined;
}

const numberText = (n: number) => String(Number(n.toPrecision(12)));

/** The limits of a field in words, or undefined when its control already bounds it. */
function limitsOf(
  kind: InputKind,
  rules: FieldRules,
  unitText: string,
  display?: FieldDisplay,
): string | undefined {
  if (display?.type === 'choice' || display?.type === 'time-of-day') return undefined;
  if (kind === 'number' && rules.min && rules.max)
    return `${numberText(rules.min.value)} to ${numberText(rules.max.value)}${unitText}`;
  const least = rules.minLength?.value;
  const most = rules.maxLength?.value;
  if (least !== undefined && most !== undefined) return `${least} to ${most} characters`;
  if (most !== undefined) return `Up to ${most} characters`;
  if (least !== undefined) return `At least ${least} characters`;
  return undefined;
}

function buildField(config: DeviceConfig, obj: DataObj, decoded: DecodedConfig, now: () => Date): FormField {
  const label = labelOf(obj);
  const raw = config.rawData.find((r) => r.name === obj.dataId);
  const other = config.otherData.find((o) => o.name === obj.dataId);
  const inverse = other ? derivedInverse(other) : null;
  const deviceValue = decoded.values[obj.dataId] ?? obj.value ?? '';
  const unit = obj.unit ?? raw?.unit ?? other?.unit;
  const unitText = unit ? ` ${unit}` : '';
  let kind: InputKind = 'text';
  let rules: FieldRules;
  if (raw) {
    kind = 'number';
    const range = fieldRange(raw.buffer);
    const scaled = { min: scaleRaw(range.min, raw.multiplier), max: scaleRaw(range.max, raw.multiplier) };
    rules = numberRules(obj, label, unitText, scaled);
  } else {
    if (obj.autoInput) kind = 'datetime-local';
    else if (obj.secret) kind = 'password';
    rules = textRules(obj, label, inverse?.kind === 'text' ? inverse.refs.length : undefined);
  }
  if (obj.required) rules.required = { value: true, message: `${label} is required` };
  const disabled = !obj.active;
  if (disabled) rules.disabled = true;
  const target: FormField['target'] = raw ? { kind: 'raw', name: raw.name } : (inverse ?? { kind: 'none' });
  const defaultValue = obj.autoInput && !disabled ? formatAutoInput(now()) : deviceValue;
  const display = raw ? displayOf(config, obj) : undefined;
  const limits = disabled ? undefined : limitsOf(kind, rules, unitText, display);
  const note = obj.note ?? (obj.autoInput && !disabled ? AUTO_INPUT_NOTE : undefined);
  return {
    name: obj.dataId,
    label,
    kind,
    ...(unit ? { unit } : {}),
    defaultValue,
    deviceValue,
    disabled,
    rules,
    target,
    ...(display ? { display } : {}),
    ...(limits ? { limits } : {}),
    ...(note ? { note } : {}),
  };
}

/**
 * Values → form: react-hook-form-ready groups of fields with the rules of each dataObj
 * (required when flagged; min/max/minLength/maxLength/pattern when defined; inactive fields disabled).
 * Groups whose title is in `excludedGroups` get no controls.
 * @example
 * const form = buildForm(config, decoded, { excludedGroups: ['Factory'] });
 * useForm({ defaultValues: formDefaults(form) });
 */
export function buildForm(
  config: DeviceConfig,
  decoded: DecodedConfig,
  options: FormOptions = {},
): FormGroupModel[] {
  const excluded = new Set(options.excludedGroups ?? []);
  const now = options.now ?? (() => new Date());
  return config.formData
    .filter((group) => !excluded.has(group.title))
    .map((group) => ({
      title: group.title,
      fields: group.dataObjs.map((obj) => buildField(config, obj, decoded, now)),
    }));
}

/** A group the form shows but never writes (factory calibration): why, and each value as read. */
export interface ReadOnlyGroup {
  title: string;
  note?: string;
  facts: { name: string; label: string; value: string }[];
}

/**
 * The groups `buildForm` leaves out (`excludedGroups`), with what the device holds in each of their
 * items, so that the form can say what they are and why they are not changed here.
 * @example readOnlyGroups(config, decoded, ['Factory calibration']) // [{ title: 'Factory calibration', facts: [{ label: 'Cal grid voltage', value: '1.25' }] }]
 */
export function readOnlyGroups(
  config: DeviceConfig,
  decoded: DecodedConfig,
  excludedGroups: readonly string[],
): ReadOnlyGroup[] {
  return config.formData
    .filter((group) => excludedGroups.includes(group.title))
    .map((group) => ({
      title: group.title,
      ...(group.note ? { note: group.note } : {}),
      facts: group.dataObjs.map((obj) => {
        const value = decoded.values[obj.dataId];
        const unit = obj.unit ?? config.rawData.find((r) => r.name === obj.dataId)?.unit;
        const text = value === undefined || value === '' ? 'n/a' : `${value}${unit ? ` ${unit}` : ''}`;
        return { name: obj.dataId, label: labelOf(obj), value: text };
      }),
    }));
}

/**
 * The `defaultValues` object for react-hook-form's `useForm`: each field's starting value by name.
 * @example useForm({ defaultValues: formDefaults(buildForm(config, decoded)) })
 */
export function formDefaults(groups: readonly FormGroupModel[]): Record<string, ConfigValue> {
  return Object.fromEntries(groups.flatMap((g) => g.fields.map((f) => [f.name, f.defaultValue])));
}
