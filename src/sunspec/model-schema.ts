import { z } from 'zod';
import { POINT_TYPES } from './point-types.ts';

/**
 * A group, point or scale-factor name. The official models use letters, digits and underscores,
 * and hyphens too (model 805's group `lithium-ion-module`); what a name may not hold is what the
 * point paths are made of (`.` between groups, `[n]` for a repeat) and spaces.
 */
const name = z.string().regex(/^[^\s.[\]]+$/, 'must hold no space, dot or bracket');

const symbol = z.looseObject({
  name: z.string().min(1, 'must not be empty'),
  value: z.number().int().nonnegative(),
  label: z.string().optional(),
  desc: z.string().optional(),
});

const point = z.looseObject({
  name,
  type: z.enum(POINT_TYPES),
  size: z.number().int().positive().optional(),
  sf: z.union([name, z.number().int().min(-10).max(10)]).optional(),
  access: z.enum(['R', 'RW']).optional(),
  mandatory: z.enum(['M', 'O']).optional(),
  static: z.enum(['S', 'D']).optional(),
  units: z.string().optional(),
  label: z.string().optional(),
  desc: z.string().optional(),
  symbols: z.array(symbol).optional(),
});

interface GroupShape {
  name: string;
  type: 'group' | 'sync';
  count?: number | string | undefined;
  label?: string | undefined;
  desc?: string | undefined;
  points: z.infer<typeof point>[];
  groups?: GroupShape[] | undefined;
}

const group: z.ZodType<GroupShape> = z.lazy(() =>
  z.looseObject({
    name,
    type: z.enum(['group', 'sync']),
    count: z.union([z.number().int().nonnegative(), name]).optional(),
    label: z.string().optional(),
    desc: z.string().optional(),
    points: z.array(point).default([]),
    groups: z.array(group).optional(),
  }),
);

/** A model definition file in the standard's JSON form: `{id, group}`. */
export const modelSchema = z.looseObject({
  id: z.number().int().min(1).max(0xfffe),
  group,
});

export type PointDef = z.infer<typeof point>;
export type SymbolDef = z.infer<typeof symbol>;
export type GroupDef = GroupShape;
export type ModelDef = z.infer<typeof modelSchema>;
