import type { z } from 'zod';
import { checkConfig } from './check-config.ts';
import { type DeviceConfig, deviceConfigSchema } from './config-schema.ts';

/** One thing wrong with a definition file, located by file, item and field. */
export interface ConfigIssue {
  file: string;
  /** e.g. `rawData[12] "battVoltage" buffer.position` */
  where: string;
  problem: string;
  /** `file: where: problem`, ready to show. */
  message: string;
}

export type LoadConfigResult = { ok: true; config: DeviceConfig } | { ok: false; issues: ConfigIssue[] };

/** Builds an issue; `where` is a path such as `['rawData', 3, 'buffer', 'position']`. */
export function makeIssue(
  file: string,
  json: unknown,
  path: readonly PropertyKey[],
  problem: string,
): ConfigIssue {
  const where = describePath(json, path);
  return { file, where, problem, message: `${file}: ${where ? `${where}: ` : ''}${problem}` };
}

function at(json: unknown, path: readonly PropertyKey[]): unknown {
  let node = json;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

/** `rawData[12] "battVoltage" buffer.position`: the item's name (or title / dataId) follows its index. */
function describePath(json: unknown, path: readonly PropertyKey[]): string {
  let text = '';
  let afterLabel = false;
  path.forEach((key, i) => {
    if (typeof key === 'number') {
      text += `[${key}]`;
      const node = at(json, path.slice(0, i + 1)) as Record<string, unknown> | undefined;
      const label = node?.name ?? node?.dataId ?? node?.title ?? node?.refData;
      afterLabel = typeof label === 'string';
      if (afterLabel) text += ` "${label}"`;
    } else {
      text += `${afterLabel ? ' ' : text ? '.' : ''}${String(key)}`;
      afterLabel = false;
    }
  });
  return text;
}

function zodProblem(json: unknown, issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_union' && 'discriminator' in issue && issue.discriminator === 'type') {
    const found = at(json, issue.path);
    return `unknown processData type ${JSON.stringify(found)} (expected ass, com, cal, tfm, cdt, itd, its, bsv, vfa or cts)`;
  }
  if (issue.code === 'unrecognized_keys')
    return `unknown field(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  return issue.message;
}

/**
 * Validates a `{product}-to-form.json` file: its shape, then its meaning (descriptors inside the
 * frame and not overlapping, references that name something, rules that fit their fields).
 * Never throws; every problem names the file, the item and the field.
 * @example
 * const result = loadDeviceConfig('hybrid5k-to-form.json', await response.json());
 * if (!result.ok) showErrors(result.issues.map((i) => i.message));
 */
export function loadDeviceConfig(file: string, json: unknown, bufferSize = 255): LoadConfigResult {
  const parsed = deviceConfigSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) =>
      makeIssue(file, json, issue.path, zodProblem(json, issue)),
    );
    return { ok: false, issues };
  }
  const issues = checkConfig(parsed.data, bufferSize).map((c) => makeIssue(file, json, c.path, c.problem));
  return issues.length > 0 ? { ok: false, issues } : { ok: true, config: parsed.data };
}

/** Thrown by {@link requireDeviceConfig}; `issues` holds every problem found. */
export class DeviceConfigError extends Error {
  readonly issues: ConfigIssue[];
  constructor(issues: ConfigIssue[]) {
    super(issues.map((i) => i.message).join('\n'));
    this.name = 'DeviceConfigError';
    this.issues = issues;
  }
}

/**
 * Like {@link loadDeviceConfig} but throws a {@link DeviceConfigError} listing every problem.
 * @example const config = requireDeviceConfig('battery10-to-form.json', json, entry.write.bufferSize);
 * @throws DeviceConfigError when the file is not a valid device configuration.
 */
export function requireDeviceConfig(file: string, json: unknown, bufferSize = 255): DeviceConfig {
  const result = loadDeviceConfig(file, json, bufferSize);
  if (!result.ok) throw new DeviceConfigError(result.issues);
  return result.config;
}
