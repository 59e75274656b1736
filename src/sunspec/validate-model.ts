import type { z } from 'zod';
import { errorMessage } from '../../contracts/error-message.ts';
import { type GroupDef, type ModelDef, modelSchema, type PointDef } from './model-schema.ts';
import { bitsOf, isBitfield, isEnum, TYPE_INFO } from './point-types.ts';
import { SunSpecError } from './sunspec-error.ts';

/** Where in a definition a problem is, in words: `group module, point DCA`. */
function describePath(raw: unknown, path: readonly PropertyKey[]): string {
  const parts: string[] = [];
  let node: unknown = raw;
  for (let i = 0; i < path.length; i++) {
    const key = path[i] as PropertyKey;
    const next = (node as Record<PropertyKey, unknown> | undefined)?.[key];
    if ((key === 'points' || key === 'groups') && typeof path[i + 1] === 'number') {
      const item = (next as unknown[] | undefined)?.[path[i + 1] as number] as { name?: unknown } | undefined;
      const label = typeof item?.name === 'string' ? item.name : `#${(path[i + 1] as number) + 1}`;
      parts.push(`${key === 'points' ? 'point' : 'group'} ${label}`);
      node = item;
      i++;
      continue;
    }
    if (key === 'group' && i === 0) {
      const root = next as { name?: unknown } | undefined;
      parts.push(`group ${typeof root?.name === 'string' ? root.name : '(top)'}`);
      node = next;
      continue;
    }
    parts.push(String(key));
    node = next;
  }
  return parts.join(', ') || 'the file';
}

function zodProblem(raw: unknown, issue: z.core.$ZodIssue): string {
  const last = issue.path[issue.path.length - 1];
  const field = typeof last === 'string' && !['points', 'groups'].includes(last) ? last : undefined;
  const where = describePath(raw, field ? issue.path.slice(0, -1) : issue.path);
  const message =
    issue.code === 'invalid_value' && 'values' in issue
      ? `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`
      : issue.message;
  const prefix = field && where === 'the file' ? '' : `${where}: `;
  return `${prefix}${field ? `${field} ` : ''}${message}`;
}

type Scope = readonly GroupDef[];

const findPoint = (scope: Scope, pointName: string): PointDef | undefined => {
  for (let i = scope.length - 1; i >= 0; i--) {
    const found = scope[i]?.points.find((p) => p.name === pointName);
    if (found) return found;
  }
  return undefined;
};

function checkPoint(p: PointDef, scope: Scope, fail: (problem: string) => never): void {
  const size = TYPE_INFO[p.type].size;
  if (size === undefined && p.size === undefined) fail(`a ${p.type} point needs a size in registers`);
  if (size !== undefined && p.size !== undefined && p.size !== size) {
    fail(`size ${p.size} does not match type ${p.type}, which takes ${size} register(s)`);
  }
  if (typeof p.sf === 'string') {
    const sf = findPoint(scope, p.sf);
    if (sf?.type !== 'sunssf') {
      fail(`sf '${p.sf}' names no sunssf point in its group or an enclosing one`);
    }
  }
  for (const s of p.symbols ?? []) {
    if (isBitfield(p.type) && s.value >= bitsOf(p.type)) {
      fail(`symbol ${s.name} is bit ${s.value}, past the ${bitsOf(p.type)} bits of a ${p.type}`);
    }
    if (isEnum(p.type) && s.value >= 2 ** bitsOf(p.type)) {
      fail(`symbol ${s.name} has value ${s.value}, too large for a ${p.type}`);
    }
  }
}

function checkGroup(g: GroupDef, parents: Scope, where: string, isRoot: boolean): void {
  const scope = [...parents, g];
  const names = new Set<string>();
  for (const p of g.points) {
    const fail = (problem: string): never => {
      throw new SunSpecError('bad-definition', `${where}, point ${p.name}: ${problem}`);
    };
    if (names.has(p.name)) fail('the name is used twice in its group');
    names.add(p.name);
    checkPoint(p, scope, fail);
  }
  const groups = g.groups ?? [];
  groups.forEach((child, index) => {
    const at = `${where}, group ${child.name}`;
    if (names.has(child.name)) {
      throw new SunSpecError('bad-definition', `${at}: the name is used twice in its group`);
    }
    names.add(child.name);
    if (typeof child.count === 'string') {
      const counter = findPoint(scope, child.count);
      if (!counter || !['uint16', 'count'].includes(counter.type)) {
        throw new SunSpecError(
          'bad-definition',
          `${at}: count '${child.count}' names no uint16 or count point in an enclosing group`,
        );
      }
    }
    if (child.count === 0 && !(isRoot && index === groups.length - 1)) {
      throw new SunSpecError(
        'bad-definition',
        `${at}: count 0 (repeat to the end of the model) is allowed only on the model's last group`,
      );
    }
    checkGroup(child, scope, at, false);
  });
}

/**
 * Parses and checks one model definition in the standard's JSON form. The text of a file, or an
 * already parsed value, is accepted.
 *
 * @example
 * const model = parseModelDefinition(await readFile('model_1.json', 'utf8'), 'model_1.json');
 * @throws SunSpecError 'bad-definition' whose message names the source, the point (or group) and
 *   what is wrong, e.g. `model_160.json: group mppt, group module, point DCA: sf 'X' names no sunssf point…`.
 */
export function parseModelDefinition(input: string | unknown, source: string): ModelDef {
  let raw: unknown = input;
  if (typeof input === 'string') {
    try {
      raw = JSON.parse(input);
    } catch (cause) {
      throw new SunSpecError('bad-definition', `${source}: not valid JSON (${errorMessage(cause)})`);
    }
  }
  const parsed = modelSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SunSpecError('bad-definition', `${source}: ${issue ? zodProblem(raw, issue) : 'invalid'}`);
  }
  const model = parsed.data;
  const root = model.group;
  const [id, length] = root.points;
  if (id?.name !== 'ID' || id.type !== 'uint16' || length?.name !== 'L' || length.type !== 'uint16') {
    throw new SunSpecError(
      'bad-definition',
      `${source}: group ${root.name}: the first two points must be ID and L, both uint16`,
    );
  }
  try {
    checkGroup(root, [], `group ${root.name}`, true);
  } catch (error) {
    if (error instanceof SunSpecError) throw new SunSpecError(error.code, `${source}: ${error.message}`);
    throw error;
  }
  return model;
}
