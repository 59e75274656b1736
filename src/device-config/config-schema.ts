import { z } from 'zod';
import { monitoringSchema } from './monitoring-schema.ts';
import { processStepSchema } from './process-step-schema.ts';

/** Item names are identifiers so that they can be form field names and step references. */
const nameSchema = z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'must be an identifier (letters, digits, _)');

/** Where a raw value sits in a frame (the contract of the codec's BufferDescriptor). */
export const bufferSchema = z.strictObject({
  position: z.number().int().min(0),
  length: z.union([z.literal(8), z.literal(16), z.literal(32)], { error: 'must be 8, 16 or 32' }),
  signed: z.boolean(),
  littleEndian: z.boolean(),
});

/** A value read straight from the frame; `value` is its factory default in raw (unscaled) units. */
export const rawItemSchema = z.strictObject({
  name: nameSchema,
  value: z.number().int(),
  buffer: bufferSchema,
  /** Display value = raw × multiplier; on write the form value is divided by it and rounded. */
  multiplier: z.number().positive(),
  /** Measured by the device (a live value): never written from the form. */
  readOnly: z.boolean().optional(),
  unit: z.string().optional(),
});
export type RawItem = z.infer<typeof rawItemSchema>;

/** A value derived by its processData steps from raw and earlier derived values. */
export const otherItemSchema = z.strictObject({
  name: nameSchema,
  value: z.union([z.number(), z.string()]).optional(),
  processData: z.array(processStepSchema).min(1),
  unit: z.string().optional(),
});
export type OtherItem = z.infer<typeof otherItemSchema>;

/** One form field: the specification's dataObj, plus a label, a unit and a secret flag. */
export const dataObjSchema = z.strictObject({
  dataId: nameSchema,
  value: z.union([z.number(), z.string()]).optional(),
  active: z.boolean(),
  required: z.boolean().optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  minLength: z.number().int().min(0).optional(),
  maxLength: z.number().int().min(1).optional(),
  rex: z.string().optional(),
  /** Fill the field with the current local date-time, `YYYY-MM-DDTHH:MM`. */
  autoInput: z.boolean().optional(),
  label: z.string().optional(),
  unit: z.string().optional(),
  /** Render as a password input. */
  secret: z.boolean().optional(),
  /**
   * The otherData item that shows this number in words, by its one step: `vfa` makes the field a
   * select of the list's labels, `tfm` a time of day kept in seconds after midnight, `itd` one kept
   * in minutes after midnight, `its` a number of minutes also shown as a duration.
   */
  display: nameSchema.optional(),
  /** A line under the field in words: what it accepts, or why it cannot be changed here. */
  note: z.string().min(1).optional(),
});
export type DataObj = z.infer<typeof dataObjSchema>;

export const formGroupSchema = z.strictObject({
  title: z.string().min(1),
  dataObjs: z.array(dataObjSchema),
  /** A line under the group's title in words (why a group is not changed in the field). */
  note: z.string().min(1).optional(),
});
export type FormGroup = z.infer<typeof formGroupSchema>;

/** A layout cell: `prepend + value(refData) rounded to round decimals + append`, or the static `value`. */
export const layoutColSchema = z.strictObject({
  refData: nameSchema.optional(),
  round: z.number().int().min(0).max(6).optional(),
  prepend: z.string().optional(),
  append: z.string().optional(),
  value: z.union([z.number(), z.string()]).optional(),
});
export type LayoutCol = z.infer<typeof layoutColSchema>;

export const layoutSchema = z.strictObject({
  rows: z.array(z.strictObject({ cols: z.array(layoutColSchema) })),
});

/** A `{product}-to-form.json` file. */
export const deviceConfigSchema = z.strictObject({
  rawData: z.array(rawItemSchema).min(1),
  otherData: z.array(otherItemSchema),
  formData: z.array(formGroupSchema),
  layout: layoutSchema,
  /** How the `Read live values` answer becomes telemetry (monitoring-schema.ts); optional. */
  monitoring: monitoringSchema.optional(),
});
export type DeviceConfig = z.infer<typeof deviceConfigSchema>;
