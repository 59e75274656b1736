import type { DeviceConfig } from './config-schema.ts';

/** One option of an enumerated setting. */
export interface Choice {
  value: string;
  label: string;
}

/**
 * Enumerated settings: a raw item that an otherData `vfa` step turns into a list entry gets that
 * list as its choices (index → text), so the form shows a select instead of a bare number.
 * @example fieldChoices(config).workMode // [{ value: '0', label: 'Self-use' }, …]
 */
export function fieldChoices(config: DeviceConfig): Record<string, Choice[]> {
  const choices: Record<string, Choice[]> = {};
  for (const item of config.otherData) {
    const [step] = item.processData;
    if (item.processData.length !== 1 || step?.type !== 'vfa' || !step.list) continue;
    choices[step.ref] = step.list.map((label, i) => ({ value: String(i), label: String(label) }));
  }
  return choices;
}
