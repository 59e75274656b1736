import { z } from 'zod';
import { serialNumberPattern } from './catalogue.ts';
import { modelIdSchema } from './devices.ts';
import { idParamSchema, idSchema } from './ids.ts';

/**
 * A firmware version as MCUboot's header holds it and as a device says it in its hello:
 * `major.minor.revision`, with `+build` when the build number is not 0.
 */
export const firmwareVersionSchema = z
  .string()
  .max(32)
  .regex(/^\d{1,3}\.\d{1,3}\.\d{1,5}(\+\d{1,10})?$/, 'a version such as 1.2.0 or 1.2.0+7');

/** Which devices an image is offered to first: every device (`stable`) or testers (`beta`). */
export const firmwareChannelSchema = z.enum(['stable', 'beta']);
export type FirmwareChannel = z.infer<typeof firmwareChannelSchema>;

/** `POST /fleet/firmware?model=&channel=`: the model the image must be for, and its channel. */
export const firmwareUploadQuerySchema = z.object({
  model: modelIdSchema,
  channel: firmwareChannelSchema,
});

/** `GET /fleet/firmware?model=`: one model's images, or (without `model`) every model's the caller may update. */
export const firmwareListQuerySchema = z.object({ model: modelIdSchema.optional() });

/** An uploaded firmware image, as the upload and the list answer it. */
export const firmwareImageSchema = z.object({
  id: z.number().int(),
  modelId: z.string(),
  version: z.string(),
  /** SHA-256 of the image's header, payload and protected TLVs (hex): the image's own hash TLV. */
  sha256: z.string(),
  /** Bytes of the whole image file. */
  size: z.number().int(),
  channel: firmwareChannelSchema,
  uploadedAt: z.string(),
});
export type FirmwareImageInfo = z.infer<typeof firmwareImageSchema>;

/** `GET /fleet/firmware`: newest upload first. */
export const firmwareListSchema = z.object({ images: z.array(firmwareImageSchema) });

/** The firmware the demo's devices run, and the newer image the demo ships for each demo model. */
export const DEMO_FIRMWARE = { running: '1.0.0', offered: '1.1.0' } as const;

/**
 * `GET /fleet/firmware/keys`: the public keys images must be signed with, as a device trusts them
 * (the demo device in the browser checks signatures with these).
 */
export const firmwareKeysSchema = z.object({
  keys: z.array(
    z.object({
      /** SHA-256 of the key's DER SubjectPublicKeyInfo (hex): the image's key-hash TLV. */
      keyHash: z.string(),
      /** The Ed25519 public key, DER SubjectPublicKeyInfo in base64. */
      publicKey: z.string(),
    }),
  ),
});
export type FirmwareKeys = z.infer<typeof firmwareKeysSchema>;

/** The most devices one rollout takes. */
export const ROLLOUT_MAX_DEVICES = 10_000;
/** Hours a rollout waits for devices offline at their turn, unless the rollout says (`windowHours`). */
export const ROLLOUT_WINDOW_HOURS = 24;
/** The longest window a rollout may have: 30 days. */
export const ROLLOUT_MAX_WINDOW_HOURS = 720;

/**
 * `POST /fleet/firmware-rollouts`: an image and its devices — the serials named, or a site's
 * devices of the image's model, or (neither) every device of that model the caller may update —
 * with the canary's size, each later wave's size, how many failures it takes in its stride, and
 * how many hours from its start a device offline at its turn is still updated when it comes back.
 */
export const rolloutCreateSchema = z
  .object({
    firmwareId: idSchema,
    serials: z
      .array(z.string().regex(serialNumberPattern, 'a serial number such as HX5K-24-000123'))
      .min(1)
      .max(ROLLOUT_MAX_DEVICES)
      .optional(),
    siteId: idSchema.optional(),
    canary: z.number().int().min(1).max(ROLLOUT_MAX_DEVICES),
    waveSize: z.number().int().min(1).max(ROLLOUT_MAX_DEVICES),
    maxFailures: z.number().int().min(0).max(ROLLOUT_MAX_DEVICES),
    windowHours: z
      .number()
      .int('whole hours')
      .min(1, 'at least 1 hour')
      .max(ROLLOUT_MAX_WINDOW_HOURS, `at most ${ROLLOUT_MAX_WINDOW_HOURS} hours (30 days)`)
      .optional(),
  })
  .strict()
  .refine((body) => !(body.serials && body.siteId !== undefined), {
    message: 'name serials or a siteId, not both',
    path: ['siteId'],
  });
export type RolloutCreate = z.infer<typeof rolloutCreateSchema>;

export const ROLLOUT_STATES = ['running', 'paused', 'stopped', 'done', 'cancelled'] as const;
export type RolloutState = (typeof ROLLOUT_STATES)[number];
export const ROLLOUT_DEVICE_STATES = [
  'queued',
  'uploading',
  'testing',
  'confirmed',
  'reverted',
  'failed',
  'offline',
] as const;
export type RolloutDeviceState = (typeof ROLLOUT_DEVICE_STATES)[number];

/** A device of a rollout: how far it got, the version it runs (as last read), and why it failed. */
export const rolloutDeviceSchema = z.object({
  serial: z.string(),
  state: z.enum(ROLLOUT_DEVICE_STATES),
  version: z.string().nullable(),
  reason: z.string().optional(),
});

/** `POST /fleet/firmware-rollouts` (201) and `POST …/{id}/pause|resume|cancel`. */
export const rolloutCreatedSchema = z.object({ id: z.number().int(), state: z.enum(ROLLOUT_STATES) });

/** `GET /fleet/firmware-rollouts/{id}`. */
export const rolloutSchema = z.object({
  id: z.number().int(),
  state: z.enum(ROLLOUT_STATES),
  firmwareId: z.number().int(),
  modelId: z.string(),
  version: z.string(),
  canary: z.number().int(),
  waveSize: z.number().int(),
  maxFailures: z.number().int(),
  createdAt: z.string(),
  /** When the window closes: devices still offline then are left out (`offline`, with the reason). */
  windowEndsAt: z.string(),
  devices: z.array(rolloutDeviceSchema),
});
export type Rollout = z.infer<typeof rolloutSchema>;

/** `GET /fleet/firmware-rollouts`: the newest `limit` rollouts, or those older than the rollout `before`. */
export const rolloutListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(25),
  before: idParamSchema.optional(),
});
export type RolloutListQuery = z.infer<typeof rolloutListQuerySchema>;

/** How many of a rollout's devices are in each state. */
export const rolloutCountsSchema = z.object({
  queued: z.number().int(),
  uploading: z.number().int(),
  testing: z.number().int(),
  confirmed: z.number().int(),
  reverted: z.number().int(),
  failed: z.number().int(),
  offline: z.number().int(),
}) satisfies z.ZodType<Record<RolloutDeviceState, number>>;
export type RolloutCounts = z.infer<typeof rolloutCountsSchema>;

/** Devices counted by state from `[state, how many]` pairs (a state twice adds up); 0 for every state not given. */
export function rolloutCounts(entries: Iterable<readonly [RolloutDeviceState, number]> = []): RolloutCounts {
  const counts = Object.fromEntries(ROLLOUT_DEVICE_STATES.map((state) => [state, 0])) as RolloutCounts;
  for (const [state, n] of entries) counts[state] += n;
  return counts;
}

/** A rollout as the list shows it: its settings, how many devices it has, how many are in each state. */
export const rolloutSummarySchema = rolloutSchema.omit({ devices: true }).extend({
  devices: z.number().int(),
  counts: rolloutCountsSchema,
});
export type RolloutSummary = z.infer<typeof rolloutSummarySchema>;

/** `GET /fleet/firmware-rollouts`: newest first; `next` is the `before` of the following page, or null. */
export const rolloutListSchema = z.object({
  rollouts: z.array(rolloutSummarySchema),
  next: z.number().int().nullable(),
});
export type RolloutList = z.infer<typeof rolloutListSchema>;
