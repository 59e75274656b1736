import { z } from 'zod';
import { serialNumberPattern } from '../../../contracts/catalogue.ts';
import {
  firmwareChannelSchema,
  ROLLOUT_MAX_DEVICES,
  ROLLOUT_MAX_WINDOW_HOURS,
  ROLLOUT_WINDOW_HOURS,
  type RolloutCreate,
} from '../../../contracts/firmware.ts';

/** The upload dialog: the file, the model it is for, its channel. */
export const uploadFormSchema = z.object({
  file: z.custom<File | null>((value) => value instanceof File && value.size > 0, 'Choose the image file'),
  model: z.string().min(1, 'Choose the model the image is for'),
  channel: firmwareChannelSchema,
});
export type UploadForm = z.infer<typeof uploadFormSchema>;

/** Which devices a rollout takes: serials typed, a site's, or every device of the model. */
export const ROLLOUT_TARGETS = ['serials', 'site', 'model'] as const;
export type RolloutTarget = (typeof ROLLOUT_TARGETS)[number];

/** A number field as Mantine's NumberInput holds it: a number, or '' while it is empty; `unit` follows a bound in a message. */
const count = (what: string, min: number, max = ROLLOUT_MAX_DEVICES, unit = (_n: number) => '') =>
  z.union([z.number(), z.literal('')]).superRefine((value, ctx) => {
    if (value === '') ctx.addIssue({ code: 'custom', message: `Give ${what.toLowerCase()}` });
    else if (!Number.isInteger(value)) ctx.addIssue({ code: 'custom', message: `${what} is a whole number` });
    else if (value < min) ctx.addIssue({ code: 'custom', message: `${what} is at least ${min}${unit(min)}` });
    else if (value > max) ctx.addIssue({ code: 'custom', message: `${what} is at most ${max}${unit(max)}` });
  });

/** The serial numbers typed, one per line or separated by commas or spaces, each once. */
export const serialsOf = (text: string): string[] => [
  ...new Set(
    text
      .split(/[\s,;]+/)
      .map((serial) => serial.trim().toUpperCase())
      .filter(Boolean),
  ),
];

/** The start dialog, with a message at each field a person can fix. */
export const startFormSchema = z
  .object({
    firmwareId: z.string().min(1, 'Choose the image to roll out'),
    target: z.enum(ROLLOUT_TARGETS),
    serials: z.string(),
    siteId: z.string().nullable(),
    canary: count('The canary', 1),
    waveSize: count('The wave size', 1),
    maxFailures: count('The failure limit', 0),
    windowHours: count('The window', 1, ROLLOUT_MAX_WINDOW_HOURS, (n) =>
      n === 1 ? ' hour' : ' hours (30 days)',
    ),
  })
  .superRefine((form, ctx) => {
    if (form.target === 'serials') {
      const serials = serialsOf(form.serials);
      const wrong = serials.find((serial) => !serialNumberPattern.test(serial));
      if (serials.length === 0)
        ctx.addIssue({ code: 'custom', path: ['serials'], message: 'Give at least one serial number' });
      else if (wrong)
        ctx.addIssue({
          code: 'custom',
          path: ['serials'],
          message: `${wrong} is not a serial number such as HX5K-24-000123`,
        });
      else if (serials.length > ROLLOUT_MAX_DEVICES)
        ctx.addIssue({
          code: 'custom',
          path: ['serials'],
          message: `A rollout takes at most ${ROLLOUT_MAX_DEVICES} devices`,
        });
    }
    if (form.target === 'site' && !form.siteId)
      ctx.addIssue({ code: 'custom', path: ['siteId'], message: 'Choose a site' });
  });
export type StartForm = z.input<typeof startFormSchema>;

/** The form a rollout starts from: one canary, waves of ten, stop at the second failure, a day's window. */
export const START_FORM: StartForm = {
  firmwareId: '',
  target: 'serials',
  serials: '',
  siteId: null,
  canary: 1,
  waveSize: 10,
  maxFailures: 1,
  windowHours: ROLLOUT_WINDOW_HOURS,
};

/** The request of a checked start form. */
export function rolloutRequestOf(form: StartForm): RolloutCreate {
  return {
    firmwareId: Number(form.firmwareId),
    ...(form.target === 'serials' && { serials: serialsOf(form.serials) }),
    ...(form.target === 'site' && form.siteId && { siteId: Number(form.siteId) }),
    canary: Number(form.canary),
    waveSize: Number(form.waveSize),
    maxFailures: Number(form.maxFailures),
    windowHours: Number(form.windowHours),
  };
}
