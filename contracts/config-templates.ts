import { z } from 'zod';
import { serialNumberPattern } from './catalogue.ts';
import { modelIdSchema } from './devices.ts';
import { idSchema } from './ids.ts';

/**
 * Settings templates: named sets of a product's settings, in the units its form shows (`40` for a
 * 40 A charge current, `'Backup'`-style choices by their number). A template belongs to its
 * creator's company (docs/api.md, "Settings templates"); its settings are checked against the
 * product's catalogue when it is saved and again, against the device's current limits, when it
 * is applied.
 */

/** A setting's name: the form field (`dataId`) of the product's configuration file. */
export const settingNameSchema = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'must be a setting name such as maxChargeCurrent');

/** A setting's value as the form holds it: a number in display units, or text. */
export const settingValueSchema = z.union([
  z.number().refine(Number.isFinite, 'must be a finite number'),
  z.string().max(200),
]);
export type SettingValue = z.infer<typeof settingValueSchema>;

/** Most settings one template holds (every bundled product has fewer than 40). */
export const MAX_TEMPLATE_SETTINGS = 200;

/** Setting name → value; at least one. */
export const templateSettingsSchema = z
  .record(settingNameSchema, settingValueSchema)
  .refine((settings) => Object.keys(settings).length >= 1, 'a template holds at least one setting')
  .refine(
    (settings) => Object.keys(settings).length <= MAX_TEMPLATE_SETTINGS,
    `a template holds at most ${MAX_TEMPLATE_SETTINGS} settings`,
  );
export type TemplateSettings = z.infer<typeof templateSettingsSchema>;

export const templateNameSchema = z.string().trim().min(1, 'a template needs a name').max(80);

/** `POST /fleet/config-templates`. */
export const templateCreateSchema = z.object({
  name: templateNameSchema,
  modelId: modelIdSchema,
  settings: templateSettingsSchema,
});
export type TemplateCreate = z.infer<typeof templateCreateSchema>;

/** `PUT /fleet/config-templates/{id}`: rename, replace the settings, or both. */
export const templateUpdateSchema = z
  .object({ name: templateNameSchema.optional(), settings: templateSettingsSchema.optional() })
  .refine((body) => body.name !== undefined || body.settings !== undefined, {
    message: 'give a name to rename the template or settings to replace them',
  });
export type TemplateUpdate = z.infer<typeof templateUpdateSchema>;

/** A stored template. */
export const templateSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  modelId: z.string(),
  settings: z.record(z.string(), settingValueSchema),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedBy: z.string(),
  updatedAt: z.string(),
});
export type ConfigTemplate = z.infer<typeof templateSchema>;

/** Query of `GET /fleet/config-templates`: one product's templates, or every product's. */
export const templateListQuerySchema = z.object({ modelId: modelIdSchema.optional() });

/** `GET /fleet/config-templates`: by product, then name. */
export const templateListSchema = z.object({ items: z.array(templateSchema) });

/**
 * Largest template file an import reads: a template of the most settings there may be, each value
 * as long as it may be, fits several times over. A bigger file is refused before it is read.
 */
export const MAX_TEMPLATE_FILE_BYTES = 256 * 1024;

/** What a template file says it is. */
export const TEMPLATE_FILE_FORMAT = 'fleet-manager/config-template';

/**
 * A template exported as a file (`.json`), and what an import must be: the format and version
 * first, so that any other JSON is refused as "not a template file" before its fields are read.
 */
export const templateFileSchema = z.object({
  format: z.literal(TEMPLATE_FILE_FORMAT, { message: `must be "${TEMPLATE_FILE_FORMAT}"` }),
  version: z.literal(1, { message: 'must be 1 (the only version there is)' }),
  name: templateNameSchema,
  modelId: modelIdSchema,
  /** The model's display name when exported; for people reading the file. */
  productName: z.string().max(200).optional(),
  settings: templateSettingsSchema,
  exportedAt: z.string().max(40).optional(),
});
export type TemplateFile = z.infer<typeof templateFileSchema>;

/** Most devices one remote apply reaches (one at a time, each verified). */
export const MAX_REMOTE_APPLY_DEVICES = 25;

/**
 * `POST /fleet/config-templates/{id}/apply`: write the template to devices online over
 * service-comms, one at a time. `password` is the devices' password (each device is locked on a
 * new connection); without `continueOnFailure` the first device that fails stops the run.
 */
export const remoteApplyRequestSchema = z.object({
  serials: z
    .array(z.string().regex(serialNumberPattern, 'a serial number such as HX5K-24-000123'))
    .min(1, 'name at least one device')
    .max(MAX_REMOTE_APPLY_DEVICES, `at most ${MAX_REMOTE_APPLY_DEVICES} devices at a time`)
    .refine((serials) => new Set(serials).size === serials.length, 'name each device once'),
  password: z.string().max(16).optional(),
  continueOnFailure: z.boolean().default(false),
});
export type RemoteApplyRequest = z.infer<typeof remoteApplyRequestSchema>;

/**
 * How one device ended: `written` (and verified by reading back), `already_equal` (nothing to
 * write), `refused` (nothing was sent: another product, a setting it lacks or a value outside its
 * limits), `failed` (offline, no answer, wrong password, the device refused the write, or the
 * read-back differs), `skipped` (not tried: an earlier device failed).
 */
export const applyOutcomeSchema = z.enum(['written', 'already_equal', 'refused', 'failed', 'skipped']);
export type ApplyOutcome = z.infer<typeof applyOutcomeSchema>;

/** One changed setting, as the form shows it. */
export const appliedChangeSchema = z.object({
  field: z.string(),
  label: z.string(),
  oldValue: z.string(),
  newValue: z.string(),
});

export const deviceApplyResultSchema = z.object({
  serial: z.string(),
  outcome: applyOutcomeSchema,
  /** Why it was refused or failed, in words; null when written or already equal. */
  reason: z.string().nullable(),
  changes: z.array(appliedChangeSchema),
});
export type DeviceApplyResult = z.infer<typeof deviceApplyResultSchema>;

/** The answer of a remote apply: one result per device, in the order asked. */
export const remoteApplyResultSchema = z.object({
  template: z.object({ id: idSchema, name: z.string() }),
  results: z.array(deviceApplyResultSchema),
});
export type RemoteApplyResult = z.infer<typeof remoteApplyResultSchema>;
