import type { DecodedDevice, DecodedGroup, DecodedModel } from './decode-device.ts';
import type { PointValue } from './point-codec.ts';
import { SunSpecError } from './sunspec-error.ts';

/** Point values by name; a sub-group is an object, a repeating one an array of them. */
export interface PointsJson {
  [name: string]: PointValue | PointsJson | PointsJson[];
}

/** One model as the command line prints it. */
export interface ModelJson {
  id: number;
  name: string | null;
  points: PointsJson;
  /** Only for a model without a definition: its length and registers in hex. */
  length?: number;
  registers?: string;
}

const hidden = (name: string, root: boolean) => root && (name === 'ID' || name === 'L');

function groupJson(group: DecodedGroup, root: boolean): PointsJson {
  const out: PointsJson = {};
  for (const p of group.points) {
    if (p.def.type === 'pad' || hidden(p.def.name, root)) continue;
    out[p.def.name] = p.value;
  }
  group.groups.forEach((child) => {
    if (Array.isArray(child)) {
      const name = child[0]?.def.name;
      if (name) out[name] = child.map((g) => groupJson(g, false));
    } else {
      out[child.def.name] = groupJson(child, false);
    }
  });
  return out;
}

/** A decoded model as plain data: scale factors applied, `null` for not implemented. */
export function modelJson(model: DecodedModel): ModelJson {
  if (!model.definition || !model.root) {
    return {
      id: model.id,
      name: null,
      points: {},
      length: model.length,
      registers: Array.from(model.registers.subarray(2), (r) => r.toString(16).padStart(4, '0')).join(''),
    };
  }
  return { id: model.id, name: model.definition.group.name, points: groupJson(model.root, true) };
}

export const deviceJson = (device: DecodedDevice): ModelJson[] => device.models.map(modelJson);

/** JSON text in which a 64-bit value past 2^53 is written as the exact integer it is. */
export function stringifyJson(value: unknown, indent?: number): string {
  const marker = '\u0000big:';
  return JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `${marker}${v}` : v), indent).replace(
    /"\\u0000big:(-?\d+)"/g,
    '$1',
  );
}

type Flat = Map<string, unknown>;

function flatten(json: unknown, prefix: string, out: Flat, where: string): void {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new SunSpecError('bad-changes', `${where}: points must be an object of name: value`);
  }
  for (const [name, value] of Object.entries(json)) {
    const path = prefix ? `${prefix}.${name}` : name;
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        flatten(item, `${path}[${i}]`, out, where);
      });
    } else if (value !== null && typeof value === 'object') {
      flatten(value, path, out, where);
    } else {
      out.set(path, value);
    }
  }
}

const sameValue = (a: unknown, b: PointValue) =>
  a === b || (a !== null && b !== null && typeof a !== 'object' && String(a) === String(b));

/**
 * The points a JSON of values changes, by model index: the JSON has the shape `decode` prints
 * (`[{id, points}]`, any subset of models and points); the n-th entry with an id matches the n-th
 * model with that id. Values equal to the device's are left out.
 *
 * @throws SunSpecError 'bad-changes' for a model the device lacks, a point a model lacks, or a
 *   value of the wrong kind.
 */
export function changesFromJson(device: DecodedDevice, json: unknown): Map<number, Map<string, PointValue>> {
  if (!Array.isArray(json)) {
    throw new SunSpecError(
      'bad-changes',
      'the changes must be a JSON array of {"id", "points"} as decode prints',
    );
  }
  const seen = new Map<number, number>();
  const changes = new Map<number, Map<string, PointValue>>();
  json.forEach((entry: unknown, i) => {
    const { id, points } = (entry ?? {}) as { id?: unknown; points?: unknown };
    if (typeof id !== 'number') throw new SunSpecError('bad-changes', `entry ${i + 1} has no model id`);
    const nth = seen.get(id) ?? 0;
    seen.set(id, nth + 1);
    const model = device.models.filter((m) => m.id === id)[nth];
    if (!model)
      throw new SunSpecError('bad-changes', `the device has no ${nth > 0 ? `${nth + 1}th ` : ''}model ${id}`);
    const flat: Flat = new Map();
    flatten(points ?? {}, '', flat, `model ${id}`);
    const edits = new Map<string, PointValue>();
    for (const [path, value] of flat) {
      const point = model.points.find((p) => p.path === path);
      if (!point) throw new SunSpecError('bad-changes', `model ${id} has no point ${path}`);
      if (value !== null && !['number', 'string'].includes(typeof value)) {
        throw new SunSpecError(
          'bad-changes',
          `model ${id} point ${path}: ${JSON.stringify(value)} is not a value`,
        );
      }
      if (!sameValue(value, point.value)) edits.set(path, value as PointValue);
    }
    if (edits.size > 0) changes.set(model.index, edits);
  });
  return changes;
}
