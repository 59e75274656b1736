import type { PointsJson } from './device-json.ts';
import type { GroupDef, ModelDef } from './model-schema.ts';
import { encodePoint, type PointValue } from './point-codec.ts';

type Scope = readonly PointsJson[];

function lookup(scope: Scope, name: string): unknown {
  for (let i = scope.length - 1; i >= 0; i--) {
    const json = scope[i] as PointsJson;
    if (Object.hasOwn(json, name)) return json[name];
  }
  return undefined;
}

function composeGroup(group: GroupDef, values: PointsJson, parents: Scope, out: number[]): void {
  const scope = [...parents, values];
  for (const p of group.points) {
    const given = values[p.name];
    let value: PointValue =
      given === undefined || (given !== null && typeof given === 'object') ? null : given;
    // A scale factor left out is 0; one given as null is not implemented.
    if (given === undefined && p.type === 'sunssf') value = 0;
    const sfValue = typeof p.sf === 'string' ? lookup(scope, p.sf) : p.sf;
    const sf = p.sf === undefined ? undefined : typeof sfValue === 'number' ? sfValue : 0;
    if (value === null && p.type === 'count') value = 0;
    out.push(...encodePoint(p, value, sf));
  }
  for (const child of group.groups ?? []) {
    const given = values[child.name];
    if (child.count === undefined) {
      composeGroup(
        child,
        (given && !Array.isArray(given) && typeof given === 'object' ? given : {}) as PointsJson,
        scope,
        out,
      );
      continue;
    }
    for (const item of Array.isArray(given) ? given : []) composeGroup(child, item, scope, out);
  }
}

/**
 * Builds the registers of a model (ID, L and the rest) from values in the shape `decode` prints:
 * missing points are not implemented, missing scale factors 0, repeating groups as given. Count
 * points must be given to match their groups. Used for the demo device and tests.
 *
 * @example
 * composeModel(model121, { WMax: 9000, WMax_SF: 0 }); // Uint16Array [121, 30, 9000, …]
 * @throws SunSpecError 'bad-value' when a value does not fit its point.
 */
export function composeModel(model: ModelDef, values: PointsJson): Uint16Array {
  const out: number[] = [];
  composeGroup(model.group, { ...values, ID: model.id, L: 0 }, [], out);
  out[1] = out.length - 2;
  return Uint16Array.from(out);
}
