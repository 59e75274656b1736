import type { ConfigChange } from '../../contracts/config-history.ts';
import type { FormField, FormGroupModel } from './form-fields.ts';
import type { ConfigValue } from './process-data.ts';
import { dateTimeText, minutesToText, minutesToTime, secondsToTime } from './time-format.ts';

/** What a history record shows instead of a secret (the device password is never recorded). */
export const SECRET_CHANGED = '(changed)';

/**
 * A setting's value as the form shows it, for people: an enumeration by its label (`Backup`), a
 * time of day in 12-hour form (`2:00 am`), a date-time as `Nov 25, 2026, 2:14 am`, a duration in
 * words, a number with its unit (`55.5 V`); empty stays empty.
 * @example valueText(workModeField, 2) // 'Backup'
 */
export function valueText(field: FormField, value: ConfigValue | undefined): string {
  if (value === undefined || value === '') return '';
  const display = field.display;
  const n = typeof value === 'number' ? value : Number(value);
  if (display?.type === 'choice')
    return display.options.find((o) => o.value === String(value))?.label ?? String(value);
  if (display?.type === 'time-of-day' && Number.isFinite(n))
    return display.unit === 'seconds' ? secondsToTime(n) : minutesToTime(n);
  if (display?.type === 'duration' && Number.isFinite(n)) return minutesToText(n);
  if (field.kind === 'datetime-local') return dateTimeText(String(value));
  if (field.kind === 'number' && field.unit) return `${value} ${field.unit}`;
  return String(value);
}

const shown = (value: ConfigValue | undefined) => (value === undefined ? '' : String(value));

/**
 * The editable settings whose values differ between two reads of a device: before and after a
 * verified write, each as people read it ({@link valueText}). Secret fields are recorded as
 * changed, never with their values.
 * @example configChanges(groups, before.values, after.values) // [{ field: 'workMode', oldValue: 'Self-use', newValue: 'Backup', … }]
 */
export function configChanges(
  groups: readonly FormGroupModel[],
  before: Readonly<Record<string, ConfigValue>>,
  after: Readonly<Record<string, ConfigValue>>,
): ConfigChange[] {
  return groups
    .flatMap((g) => g.fields)
    .filter((f) => !f.disabled && shown(before[f.name]) !== shown(after[f.name]))
    .map((f) => {
      const secret = f.kind === 'password';
      return {
        field: f.name,
        label: f.label.slice(0, 200),
        oldValue: secret ? SECRET_CHANGED : valueText(f, before[f.name]).slice(0, 200),
        newValue: secret ? SECRET_CHANGED : valueText(f, after[f.name]).slice(0, 200),
      };
    });
}
