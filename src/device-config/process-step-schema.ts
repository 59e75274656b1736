import { z } from 'zod';

/**
 * A reference to a named value: a rawData item, an earlier otherData item,
 * or `$` for the result of the previous step of the same item.
 */
export const refSchema = z.string().min(1);

/** A part of an `ass` step: a named value (optionally zero-padded) or literal text. */
const assPartSchema = z.union([
  z.strictObject({ ref: refSchema, pad: z.number().int().min(1).max(12).optional() }),
  z.strictObject({ text: z.string() }),
]);

/** Two text outcomes `[whenTrue, whenFalse]`. */
const outcomesSchema = z.tuple([z.string(), z.string()]);

/** An operand of `cal`/`com`: a named value or a number. */
const operandSchema = z.union([z.strictObject({ ref: refSchema }), z.strictObject({ num: z.number() })]);

/** `ass`: joins its parts into one string. */
export const assStepSchema = z.strictObject({ type: z.literal('ass'), parts: z.array(assPartSchema).min(1) });
/** `com`: compares a value; gives `1`/`0`, or the text of `outcomes`. */
export const comStepSchema = z.strictObject({
  type: z.literal('com'),
  ref: refSchema,
  op: z.enum(['eq', 'ne', 'lt', 'le', 'gt', 'ge']),
  to: z.union([z.number(), z.string(), z.strictObject({ ref: refSchema })]),
  outcomes: outcomesSchema.optional(),
});
/** `cal`: `left op right`, optionally rounded to `round` decimals. */
export const calStepSchema = z.strictObject({
  type: z.literal('cal'),
  op: z.enum(['add', 'sub', 'mul', 'div', 'mod']),
  left: operandSchema,
  right: operandSchema,
  round: z.number().int().min(0).max(6).optional(),
});
/** `tfm`: seconds since midnight → `h:mm am`. */
export const tfmStepSchema = z.strictObject({ type: z.literal('tfm'), ref: refSchema });
/** `cdt`: a `YYYY-MM-DDTHH:MM[:SS]` string → `h:mm am`. */
export const cdtStepSchema = z.strictObject({ type: z.literal('cdt'), ref: refSchema });
/** `itd`: minutes since midnight → `h:mm am`. */
export const itdStepSchema = z.strictObject({ type: z.literal('itd'), ref: refSchema });
/** `its`: a number of minutes → a duration string `2 h 05 min`. */
export const itsStepSchema = z.strictObject({ type: z.literal('its'), ref: refSchema });
/** `bsv`: bit `bit` (0 = least significant) of a value → `1`/`0`, or the text of `outcomes`. */
export const bsvStepSchema = z.strictObject({
  type: z.literal('bsv'),
  ref: refSchema,
  bit: z.number().int().min(0).max(31),
  outcomes: outcomesSchema.optional(),
});
/** `vfa`: a value used as an index into `list`; `nip` when out of range, `n/a` without a list. */
export const vfaStepSchema = z.strictObject({
  type: z.literal('vfa'),
  ref: refSchema,
  list: z.array(z.string()).optional(),
});
/** `cts`: character codes of the named values → string, dropping negatives and nulls. */
export const ctsStepSchema = z.strictObject({ type: z.literal('cts'), refs: z.array(refSchema).min(1) });

/** One processData step, told apart by `type`. */
export const processStepSchema = z.discriminatedUnion('type', [
  assStepSchema,
  comStepSchema,
  calStepSchema,
  tfmStepSchema,
  cdtStepSchema,
  itdStepSchema,
  itsStepSchema,
  bsvStepSchema,
  vfaStepSchema,
  ctsStepSchema,
]);
export type ProcessStep = z.infer<typeof processStepSchema>;
export type StepType = ProcessStep['type'];

/**
 * The names a step reads, in order (`$` included).
 * @example stepRefs({ type: 'cal', op: 'mul', left: { ref: 'volts' }, right: { ref: 'amps' } }) // ['volts', 'amps']
 */
export function stepRefs(step: ProcessStep): string[] {
  switch (step.type) {
    case 'ass':
      return step.parts.flatMap((p) => ('ref' in p ? [p.ref] : []));
    case 'com':
      return typeof step.to === 'object' ? [step.ref, step.to.ref] : [step.ref];
    case 'cal':
      return [step.left, step.right].flatMap((o) => ('ref' in o ? [o.ref] : []));
    case 'cts':
      return step.refs;
    default:
      return [step.ref];
  }
}
