import type { ConfigChange } from '../../../../contracts/config-history.ts';
import type { FormGroupModel } from '../../../device-config/form-fields.ts';
import type { ConfigValue } from '../../../device-config/process-data.ts';

/** What a history record shows instead of a secret (the device password is never recorded). */
export const SECRET_CHANGED = '(changed)';

const shown = (value: ConfigValue | undefined) => (value === undefined ? '' : String(value));

/**
 * The editable settings whose values differ between two reads of a device: before and after a
 * verified write. Secret fields are recorded as changed, never with their values.
 * @example configChanges(groups, before.values, after.values) // [{ field: 'workMode', oldValue: '0', newValue: '2', … }]
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
        oldValue: secret ? SECRET_CHANGED : shown(before[f.name]).slice(0, 200),
        newValue: secret ? SECRET_CHANGED : shown(after[f.name]).slice(0, 200),
      };
    });
}
