import type { FormField } from './form-fields.ts';

/**
 * Turns a form value into a number; `''`/null/undefined mean "left empty".
 * @example toNumber(' 42.5 ') // 42.5; toNumber('') // null; toNumber('abc') // 'invalid'
 */
export function toNumber(value: unknown): number | null | 'invalid' {
  if (value === undefined || value === null || value === '') return null;
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : Number.NaN;
  return Number.isFinite(n) ? n : 'invalid';
}

/**
 * Checks one value against a field's rules, the same rules react-hook-form applies in the browser,
 * so that a write assembled elsewhere is held to them too. Returns the message, or null when valid.
 * @example validateField(field, 120) // 'Max charge current must be at most 100 A'
 */
export function validateField(field: FormField, value: unknown): string | null {
  const { rules, label } = field;
  const empty = value === undefined || value === null || value === '' || Number.isNaN(value);
  if (empty) return rules.required ? rules.required.message : null;
  if (field.kind === 'number') {
    const n = toNumber(value);
    if (n === 'invalid' || n === null) return `${label} must be a number`;
    if (rules.min && n < rules.min.value) return rules.min.message;
    if (rules.max && n > rules.max.value) return rules.max.message;
    return null;
  }
  if (typeof value !== 'string') return `${label} must be text`;
  if (rules.minLength && value.length < rules.minLength.value) return rules.minLength.message;
  if (rules.maxLength && value.length > rules.maxLength.value) return rules.maxLength.message;
  if (rules.pattern && !rules.pattern.value.test(value)) return rules.pattern.message;
  return null;
}
