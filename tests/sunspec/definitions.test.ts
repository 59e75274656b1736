import { describe, expect, it } from 'vitest';
import { parseDefinitionFiles } from '../../src/sunspec/catalogue.ts';
import { parseModelDefinition } from '../../src/sunspec/validate-model.ts';
import { bundled } from './fixtures.ts';

const header = [
  { name: 'ID', type: 'uint16' },
  { name: 'L', type: 'uint16' },
];
const file = (points: unknown[], groups?: unknown[]) =>
  JSON.stringify({
    id: 64001,
    group: { name: 'vendor', type: 'group', points: [...header, ...points], groups },
  });

describe('model definitions', () => {
  it('bundles every model the configurator promises, each valid', () => {
    expect(bundled.map((m) => m.id)).toEqual([
      1, 101, 102, 103, 111, 112, 113, 120, 121, 122, 123, 160, 701, 702, 703, 704, 705, 802,
    ]);
  });

  it.each([
    ['{"id": 1', 'model_x.json: not valid JSON'],
    [
      file([{ name: 'W', type: 'int17' }]),
      'model_x.json: group vendor, point W: type must be one of "int16", "int32"',
    ],
    [
      file([{ name: 'Mn', type: 'string' }]),
      'model_x.json: group vendor, point Mn: a string point needs a size in registers',
    ],
    [
      file([{ name: 'W', type: 'int32', size: 1 }]),
      'model_x.json: group vendor, point W: size 1 does not match type int32, which takes 2 register(s)',
    ],
    [
      file([{ name: 'W', type: 'int16', sf: 'W_SF' }]),
      "model_x.json: group vendor, point W: sf 'W_SF' names no sunssf point in its group or an enclosing one",
    ],
    [
      file([], [{ name: 'curve', type: 'group', count: 'N', points: [] }]),
      "model_x.json: group vendor, group curve: count 'N' names no uint16 or count point in an enclosing group",
    ],
    [
      file([{ name: 'Evt', type: 'bitfield16', symbols: [{ name: 'HIGH', value: 16 }] }]),
      'model_x.json: group vendor, point Evt: symbol HIGH is bit 16, past the 16 bits of a bitfield16',
    ],
    [
      file([
        { name: 'W', type: 'int16' },
        { name: 'W', type: 'int16' },
      ]),
      'model_x.json: group vendor, point W: the name is used twice in its group',
    ],
    [
      JSON.stringify({
        id: 64001,
        group: { name: 'vendor', type: 'group', points: [{ name: 'W', type: 'int16' }] },
      }),
      'model_x.json: group vendor: the first two points must be ID and L, both uint16',
    ],
    [JSON.stringify({ id: 0, group: {} }), 'model_x.json: id Too small: expected number to be >=1'],
  ])('rejects a malformed definition with a message naming file, point and problem (%#)', (text, message) => {
    expect(() => parseModelDefinition(text, 'model_x.json')).toThrow(message);
  });

  it('accepts the names the official models use: hyphens in groups and points (model 805)', () => {
    const model = parseModelDefinition(
      JSON.stringify({
        id: 805,
        group: {
          name: 'lithium-ion-module',
          type: 'group',
          points: [...header, { name: 'NCell', type: 'uint16' }, { name: 'CellV_SF', type: 'sunssf' }],
          groups: [
            {
              name: 'lithium-ion-module-cell',
              type: 'group',
              count: 'NCell',
              points: [{ name: 'CellV', type: 'uint16', sf: 'CellV_SF' }],
            },
          ],
        },
      }),
      'model_805.json',
    );
    expect(model.group.groups?.[0]?.name).toBe('lithium-ion-module-cell');
  });

  it.each(['cell.voltage', 'cell[0]', 'cell voltage'])(
    'refuses a name a point path could not hold (%j), naming it',
    (name) => {
      expect(() => parseModelDefinition(file([{ name, type: 'uint16' }]), 'model_x.json')).toThrow(
        'must hold no space, dot or bracket',
      );
    },
  );

  it('reads a folder of files: a bad one is skipped with its name and reason, the rest load', () => {
    const set = parseDefinitionFiles([
      { name: 'model_64001.json', text: file([{ name: 'W', type: 'int16' }]) },
      { name: 'model_64002.json', text: file([{ name: 'W', type: 'int17' }]) },
      { name: 'model_64003.json', text: '{"id": 1' },
    ]);
    expect(set.models.map((m) => m.id)).toEqual([64001]);
    expect(set.skipped.map((f) => f.name)).toEqual(['model_64002.json', 'model_64003.json']);
    expect(set.skipped[0]?.reason).toMatch(/^group vendor, point W: type must be one of/);
    expect(set.skipped[1]?.reason).toMatch(/^not valid JSON/);
  });

  it('accepts a new model in the same JSON form, nested groups and numeric scale factors included', () => {
    const model = parseModelDefinition(
      file(
        [
          { name: 'N', type: 'uint16' },
          { name: 'V', type: 'uint16', sf: -1, access: 'RW' },
        ],
        [{ name: 'cell', type: 'group', count: 'N', points: [{ name: 'V', type: 'uint16', sf: -3 }] }],
      ),
      'vendor.json',
    );
    expect(model.group.groups?.[0]?.count).toBe('N');
  });
});
