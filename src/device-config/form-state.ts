import type { FormField, FormGroupModel } from './form-fields.ts';
import type { ConfigValue } from './process-data.ts';
import { toNumber, validateField } from './validate-field.ts';

/** What a form holds: each field's value by name, as typed or as the device gave it. */
export type FormValues = Record<string, ConfigValue>;

/**
 * Whether two values of a field mean the same: numbers compare as numbers (`'55.50'` is `55.5`),
 * anything else as text; empty and absent are the same.
 * @example sameValue(maxChargeCurrentField, '8.0', 8) // true
 */
export function sameValue(field: FormField, a: unknown, b: unknown): boolean {
  if (field.kind === 'number') {
    const x = toNumber(a);
    const y = toNumber(b);
    if (typeof x === 'number' && typeof y === 'number') return x === y;
  }
  const text = (v: unknown) => (v === undefined || v === null || Number.isNaN(v) ? '' : String(v));
  return text(a) === text(b);
}

/**
 * Whether the person changed an editable field: its value differs from what the device holds. A
 * clock (an autoInput date-time) starts as this phone's time, not the device's: it is a change
 * only once the person edits it, so connecting never counts the clock as a change.
 */
export function isChanged(field: FormField, value: unknown): boolean {
  if (field.disabled) return false;
  const from = field.kind === 'datetime-local' ? field.defaultValue : field.deviceValue;
  return !sameValue(field, value, from);
}

/**
 * The editable fields whose values differ from the device's: what a write would change.
 * @example changedFields(groups, values).length // 2
 */
export function changedFields(groups: readonly FormGroupModel[], values: Readonly<FormValues>): FormField[] {
  return groups.flatMap((g) => g.fields).filter((f) => f.name in values && isChanged(f, values[f.name]));
}

/**
 * The values after the fields are rebuilt from a new read: a clock the person has not edited
 * (still the phone's time it started with) moves on to the phone's time now, so a read a minute
 * later does not make it a change; every other value stays as the person left it.
 */
export function followUntouchedClocks(
  before: readonly FormGroupModel[],
  after: readonly FormGroupModel[],
  values: Readonly<FormValues>,
): FormValues {
  const next: FormValues = { ...values };
  for (const field of after.flatMap((g) => g.fields)) {
    if (field.kind !== 'datetime-local' || !(field.name in values)) continue;
    const old = fieldNamed(before, field.name);
    if (old && sameValue(field, values[field.name], old.defaultValue)) next[field.name] = field.defaultValue;
  }
  return next;
}

/** The field of a form by name, or undefined. */
export function fieldNamed(groups: readonly FormGroupModel[], name: string): FormField | undefined {
  for (const group of groups) {
    const field = group.fields.find((f) => f.name === name);
    if (field) return field;
  }
  return undefined;
}

/**
 * Every editable field's problem with its value (the descriptor's rules), by field name; empty
 * when the form can be written.
 * @example formProblems(groups, { maxChargeCurrent: 120 }) // { maxChargeCurrent: 'Max charge current must be at most 100 A' }
 */
export function formProblems(
  groups: readonly FormGroupModel[],
  values: Readonly<FormValues>,
): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const field of groups.flatMap((g) => g.fields)) {
    if (field.disabled || !(field.name in values)) continue;
    const problem = validateField(field, values[field.name]);
    if (problem) problems[field.name] = problem;
  }
  return problems;
}
