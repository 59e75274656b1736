import { scaleRaw } from '../codec/scale.ts';
import type { DataObj, DeviceConfig } from './config-schema.ts';
import type { DecodedConfig } from './decode-values.ts';
import { type DerivedInverse, derivedInverse } from './derived-inverse.ts';
import { fieldRange } from './field-range.ts';
import type { ConfigValue } from './process-data.ts';
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
  if (obj.rex !== undefined) rules.pattern = { value: new RegExp(obj.rex), message: `${label} is not valid` };
  return rules;
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

/**
 * The `defaultValues` object for react-hook-form's `useForm`: each field's starting value by name.
 * @example useForm({ defaultValues: formDefaults(buildForm(config, decoded)) })
 */
export function formDefaults(groups: readonly FormGroupModel[]): Record<string, ConfigValue> {
  return Object.fromEntries(groups.flatMap((g) => g.fields.map((f) => [f.name, f.defaultValue])));
}
