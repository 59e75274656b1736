import type { GroupDef, ModelDef, PointDef } from './model-schema.ts';
import { decodePoint, type PointValue, pointSize } from './point-codec.ts';
import { locateMarker, type RegisterDump } from './register-dump.ts';
import { SunSpecError } from './sunspec-error.ts';

/** The id that ends the chain of models. */
export const END_MODEL_ID = 0xffff;

export interface DecodedPoint {
  def: PointDef;
  /** Name within the model: `WMax`, `module[0].DCA`, `PFWInj.PF`. */
  path: string;
  /** Register index within the model's block (0 is the ID register). */
  offset: number;
  size: number;
  value: PointValue;
  /** Its scale factor is not implemented: `value` is the raw number. */
  unscaled: boolean;
  /** Exponent applied; `null` when the scale factor is not implemented, `undefined` without one. */
  sf: number | null | undefined;
  /** Path of the enclosing `sync` group instance, written as one piece. */
  sync: string | null;
}

export interface DecodedGroup {
  def: GroupDef;
  path: string;
  points: DecodedPoint[];
  /** Sub-groups in order: an array for a repeating group, one group otherwise. */
  groups: (DecodedGroup | DecodedGroup[])[];
}

export interface DecodedModel {
  /** Position in the chain, from 0. */
  index: number;
  id: number;
  /** The model's length register (registers after ID and L). */
  length: number;
  /** Register address of the model's ID register. */
  address: number;
  definition: ModelDef | null;
  /** ID, L and the model's L registers, as read. */
  registers: Uint16Array;
  root: DecodedGroup | null;
  /** Every point, in register order. */
  points: DecodedPoint[];
  /** Where the definition and the device disagree on the length, in words. */
  warning: string | null;
}

export interface DecodedDevice {
  /** Address of the `SunS` marker. */
  marker: number;
  models: DecodedModel[];
}

export type ModelCatalogue = ReadonlyMap<number, ModelDef>;

interface Layout {
  regs: Uint16Array;
  end: number;
  points: DecodedPoint[];
  skipped: number;
}

const join = (path: string, name: string) => (path ? `${path}.${name}` : name);

function lookup(scope: readonly DecodedGroup[], name: string): DecodedPoint | undefined {
  for (let i = scope.length - 1; i >= 0; i--) {
    const found = scope[i]?.points.find((p) => p.def.name === name);
    if (found) return found;
  }
  return undefined;
}

function scaleOf(def: PointDef, scope: readonly DecodedGroup[]): number | null | undefined {
  if (def.sf === undefined) return undefined;
  if (typeof def.sf === 'number') return def.sf;
  const sf = lookup(scope, def.sf)?.value;
  return typeof sf === 'number' ? sf : null;
}

function decodeGroup(
  def: GroupDef,
  parents: readonly DecodedGroup[],
  at: number,
  path: string,
  sync: string | null,
  layout: Layout,
): { group: DecodedGroup; next: number } {
  const group: DecodedGroup = { def, path, points: [], groups: [] };
  const scope = [...parents, group];
  const syncPath = def.type === 'sync' ? path : sync;
  let offset = at;
  for (const p of def.points) {
    const size = pointSize(p);
    if (offset + size > layout.end) {
      layout.skipped++;
      continue;
    }
    group.points.push({
      def: p,
      path: join(path, p.name),
      offset,
      size,
      value: null,
      unscaled: false,
      sf: undefined,
      sync: syncPath,
    });
    offset += size;
  }
  // Scale factors and counts first: other points (and sub-groups) depend on them.
  const first = (p: DecodedPoint) => p.def.type === 'sunssf' || p.def.type === 'count';
  for (const point of [...group.points.filter(first), ...group.points.filter((p) => !first(p))]) {
    const sf = point.def.type === 'sunssf' ? undefined : scaleOf(point.def, scope);
    const decoded = decodePoint(point.def, layout.regs, point.offset, sf);
    point.value = decoded.value;
    point.unscaled = decoded.unscaled;
    point.sf = sf;
  }
  for (const child of def.groups ?? []) {
    const childPath = join(path, child.name);
    if (child.count === undefined) {
      const { group: one, next } = decodeGroup(child, scope, offset, childPath, syncPath, layout);
      group.groups.push(one);
      offset = next;
      continue;
    }
    const counted = typeof child.count === 'number' ? child.count : lookup(scope, child.count)?.value;
    const repeats: DecodedGroup[] = [];
    // The legacy count 0 (model 160) repeats the group to the end of the model.
    const toEnd = child.count === 0;
    const total = typeof counted === 'number' ? counted : 0;
    for (let i = 0; toEnd ? offset < layout.end : i < total; i++) {
      const { group: one, next } = decodeGroup(child, scope, offset, `${childPath}[${i}]`, syncPath, layout);
      repeats.push(one);
      if (next === offset) break;
      offset = next;
    }
    group.groups.push(repeats);
  }
  for (const p of group.points) layout.points.push(p);
  return { group, next: offset };
}

/**
 * Decodes the registers of one model (ID, L and L registers) with its definition, or as raw
 * registers when `definition` is null.
 */
export function decodeModel(
  registers: Uint16Array,
  definition: ModelDef | null,
  address = 0,
  index = 0,
): DecodedModel {
  const id = registers[0] ?? 0;
  const length = registers[1] ?? 0;
  const model: DecodedModel = {
    index,
    id,
    length,
    address,
    definition,
    registers,
    root: null,
    points: [],
    warning: null,
  };
  if (!definition) return model;
  const layout: Layout = { regs: registers, end: registers.length, points: [], skipped: 0 };
  const { group, next } = decodeGroup(definition.group, [], 0, '', null, layout);
  model.root = group;
  model.points = layout.points.sort((a, b) => a.offset - b.offset);
  if (layout.skipped > 0) {
    model.warning = `The device gives model ${id} a length of ${length}, shorter than its definition: ${layout.skipped} point(s) past the end are not shown.`;
  } else if (next < registers.length) {
    model.warning = `The device gives model ${id} ${registers.length - next} register(s) more than its definition describes; they are kept as read.`;
  }
  return model;
}

/**
 * Decodes a whole device: finds the `SunS` marker, walks the chain of models to the end marker
 * (id 0xFFFF) and decodes each model with its definition from `catalogue` (unknown ids stay raw).
 *
 * @example
 * const device = decodeDevice(parseDump(text), catalogue);
 * device.models.map((m) => m.id); // [1, 103, 120, …]
 * @throws SunSpecError 'no-marker' without a marker, 'truncated' when the dump ends inside a
 *   model or before the end marker.
 */
export function decodeDevice(dump: RegisterDump, catalogue: ModelCatalogue): DecodedDevice {
  const { start, marker } = locateMarker(dump);
  const regs = dump.registers;
  const models: DecodedModel[] = [];
  let at = marker - start + 2;
  for (;;) {
    if (at + 1 >= regs.length) {
      throw new SunSpecError(
        'truncated',
        `the dump ends at register ${start + regs.length - 1}, before the end marker (id 0xFFFF) of the model chain`,
      );
    }
    const id = regs[at] as number;
    if (id === END_MODEL_ID) break;
    const length = regs[at + 1] as number;
    if (at + 2 + length > regs.length) {
      throw new SunSpecError(
        'truncated',
        `model ${id} at register ${start + at} has length ${length}, which runs past the end of the dump at register ${start + regs.length - 1}`,
      );
    }
    const block = regs.slice(at, at + 2 + length);
    models.push(decodeModel(block, catalogue.get(id) ?? null, start + at, models.length));
    at += 2 + length;
  }
  return { marker, models };
}
