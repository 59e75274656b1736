import type { DeviceConfig } from './config-schema.ts';

/** One option of an enumerated setting. */
export interface Choice {
  value: string;
  label: string;
}

/**
 * Enumerated settings: a raw item that an otherData `vfa` step turns into a list entry gets that
 * list as its choices (index → text), so a form shows a select instead of a bare number and a
 * record or a diff shows the text.
 * @example settingChoices(config).workMode // [{ value: '0', label: 'Self-use' }, …]
 */
export function settingChoices(config: DeviceConfig): Record<string, Choice[]> {
  const choices: Record<string, Choice[]> = {};
  for (const item of config.otherData) {
    const [step] = item.processData;
    if (item.processData.length !== 1 || step?.type !== 'vfa' || !step.list) continue;
    choices[step.ref] = step.list.map((label, i) => ({ value: String(i), label: String(label) }));
  }
  return choices;
}

/**
 * A value as a record or a diff shows it: an enumerated setting by its choice's text, anything
 * else as it is (empty for no value).
 * @example shownValue(choices.workMode, 2) // 'Backup'
 */
export function shownValue(choices: readonly Choice[] | undefined, value: unknown): string {
  const raw = value === undefined || value === null ? '' : String(value);
  return choices?.find((choice) => choice.value === raw)?.label ?? raw;
}
