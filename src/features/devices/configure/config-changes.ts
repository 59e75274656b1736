import type { ConfigChange } from '../../../../contracts/config-history.ts';
import type { FormGroupModel } from '../../../device-config/form-fields.ts';
import type { ConfigValue } from '../../../device-config/process-data.ts';
import type { Choice } from '../../../device-config/setting-choices.ts';

/** What a history record shows instead of a secret (the device password is never recorded). */
export const SECRET_CHANGED = '(changed)';

const shown = (value: ConfigValue | undefined) => (value === undefined ? '' : String(value));

/** An enumerated setting as its select shows it (`Backup`), any other value as it is. */
const labelled = (choices: readonly Choice[] | undefined, value: ConfigValue | undefined) => {
  const raw = shown(value);
  return choices?.find((c) => c.value === raw)?.label ?? raw;
};

/**
 * The editable settings whose values differ between two reads of a device: before and after a
 * verified write. Secret fields are recorded as changed, never with their values; enumerated ones by
 * the label their select shows.
 * @example configChanges(groups, before.values, after.values, choices) // [{ field: 'workMode', oldValue: 'Self-use', newValue: 'Backup', … }]
 */
export function configChanges(
  groups: readonly FormGroupModel[],
  before: Readonly<Record<string, ConfigValue>>,
  after: Readonly<Record<string, ConfigValue>>,
  choices: Readonly<Record<string, readonly Choice[]>> = {},
): ConfigChange[] {
  return groups
    .flatMap((g) => g.fields)
    .filter((f) => !f.disabled && shown(before[f.name]) !== shown(after[f.name]))
    .map((f) => {
      const secret = f.kind === 'password';
      return {
        field: f.name,
        label: f.label.slice(0, 200),
        oldValue: secret ? SECRET_CHANGED : labelled(choices[f.name], before[f.name]).slice(0, 200),
        newValue: secret ? SECRET_CHANGED : labelled(choices[f.name], after[f.name]).slice(0, 200),
      };
    });
}
