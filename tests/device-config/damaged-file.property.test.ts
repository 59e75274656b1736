import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/load-node.ts';
import { buildConfigFrame, decodeConfiguration } from '../../src/device-config/decode-values.ts';
import { buildForm } from '../../src/device-config/form-fields.ts';
import { layoutRows } from '../../src/device-config/layout-values.ts';
import { loadDeviceConfig } from '../../src/device-config/load-config.ts';
import { readPublic, sampleConfig } from './bundled-products.ts';

const codec = await loadCodec();
type Path = (string | number)[];

/** Every path into a JSON value, the root excluded. */
function pathsOf(node: unknown, prefix: Path = []): Path[] {
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, child]) => {
    const path = [...prefix, Array.isArray(node) ? Number(key) : key];
    return [path, ...pathsOf(child, path)];
  });
}

function replaceAt(json: unknown, path: Path, value: unknown): void {
  let node = json as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1] as string | number] = value;
}

describe('a definition file damaged anywhere', () => {
  it('is refused with issues that name the file, or loads and then decodes, forms and lays out', () => {
    const bases = [sampleConfig(), readPublic('battery10-to-form.json')];
    const damage = fc.record({ base: fc.nat(), at: fc.nat(), value: fc.jsonValue({ maxDepth: 2 }) });
    fc.assert(
      fc.property(damage, ({ base, at, value }) => {
        const json = structuredClone(bases[base % bases.length]);
        const paths = pathsOf(json);
        replaceAt(json, paths[at % paths.length] as Path, value);
        const result = loadDeviceConfig('damaged-to-form.json', json);
        if (!result.ok) {
          expect(result.issues.length).toBeGreaterThan(0);
          for (const issue of result.issues) expect(issue.message).toMatch(/^damaged-to-form\.json: \S/);
          return;
        }
        const frame = buildConfigFrame(codec, result.config, 0x81, 255);
        const decoded = decodeConfiguration(codec, result.config, frame);
        expect(buildForm(result.config, decoded).length).toBe(result.config.formData.length);
        expect(layoutRows(result.config, decoded.values).length).toBe(result.config.layout.rows.length);
      }),
      { numRuns: 600 },
    );
  });
});
