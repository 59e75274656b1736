import { z } from 'zod';
import { idSchema } from './ids.ts';

/** What every webhook secret starts with (Standard Webhooks: base64 of the key after it). */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/**
 * The events an endpoint may subscribe to. Each is about one site, and reaches only the
 * endpoints whose owner sees that site when it happens.
 */
export const WEBHOOK_EVENTS = [
  'alarm.raised',
  'alarm.acknowledged',
  'alarm.cleared',
  'device.online',
  'device.offline',
  'device.installed',
  'device.removed',
  'configuration.written',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** The event `POST …/{id}/test` sends: to that endpoint only, whatever it subscribes to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** The longest URL an endpoint may have. */
export const WEBHOOK_URL_MAX = 2000;

const eventSchema = z.enum(WEBHOOK_EVENTS, {
  error: `events must name events of this list: ${WEBHOOK_EVENTS.join(', ')}`,
});

const urlSchema = z
  .string({ error: 'url is required' })
  .trim()
  .min(1, 'url must not be empty')
  .max(WEBHOOK_URL_MAX, `url must be at most ${WEBHOOK_URL_MAX} characters`)
  .refine((text) => !/[\s\p{Cc}]/u.test(text), 'url must not contain spaces or control characters')
  .refine((text) => {
    try {
      const url = new URL(text);
      return url.protocol === 'https:' || url.protocol === 'http:';
    } catch {
      return false;
    }
  }, 'url must be an http:// or https:// address such as https://example.com/hooks/fleet')
  .refine((text) => !/^[a-z]+:\/\/[^/?#]*@/i.test(text), 'url must not carry a user name or password');

const eventsSchema = z
  .array(eventSchema, { error: 'events must be a list of event names' })
  .min(1, 'events must name at least one event')
  .max(WEBHOOK_EVENTS.length, `events must name at most ${WEBHOOK_EVENTS.length} events`)
  .transform((events) => [...new Set(events)]);

/** `POST /fleet/webhooks`: where to send, which events, and optionally only one site's. */
export const createWebhookRequestSchema = z.strictObject({
  url: urlSchema,
  events: eventsSchema,
  /** Only this site's events; left out or null: every site the owner sees. */
  siteId: idSchema.nullable().optional(),
});
export type CreateWebhookRequest = z.infer<typeof createWebhookRequestSchema>;

/** `PUT /fleet/webhooks/{id}`: any of the fields; `disabled: false` switches a disabled endpoint on again. */
export const updateWebhookRequestSchema = z
  .strictObject({
    url: urlSchema.optional(),
    events: eventsSchema.optional(),
    siteId: idSchema.nullable().optional(),
    disabled: z.boolean({ error: 'disabled must be true or false' }).optional(),
  })
  .refine((body) => Object.keys(body).length > 0, {
    message: 'give at least one of url, events, siteId or disabled',
  });
export type UpdateWebhookRequest = z.infer<typeof updateWebhookRequestSchema>;

/** An endpoint as its owner's list shows it: never its secret. Times are ISO 8601. */
export const webhookSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  siteId: z.number().nullable(),
  /** The name of that site; null for every site the owner sees. */
  siteName: z.string().nullable(),
  createdAt: z.string(),
  /** Set when the endpoint was switched off, by its owner or after failing for 24 hours. */
  disabledAt: z.string().nullable(),
  disabledReason: z.string().nullable(),
  /** When its deliveries began failing; null while they succeed. */
  failingSince: z.string().nullable(),
});
export type Webhook = z.infer<typeof webhookSchema>;

/** `GET /fleet/webhooks`: the caller's endpoints, newest first. */
export const webhookListSchema = z.object({ webhooks: z.array(webhookSchema) });

/** `POST /fleet/webhooks` answers the endpoint and its signing secret, this once. */
export const createdWebhookSchema = webhookSchema.extend({
  /** `whsec_` and the base64 of 32 random bytes; never shown again. */
  secret: z.string().startsWith(WEBHOOK_SECRET_PREFIX),
});
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

/** One try at delivering an event. */
export const webhookAttemptSchema = z.object({
  at: z.string(),
  /** The HTTP status the endpoint answered; null when it gave no answer. */
  status: z.number().nullable(),
  durationMs: z.number(),
  /** The first bytes of the answer's body, as text. */
  response: z.string().nullable(),
  /** Why there was no answer (refused address, timeout, connection refused). */
  error: z.string().nullable(),
});

/** One event for one endpoint, with its tries; `webhookId` is the `webhook-id` header of each. */
export const webhookDeliverySchema = z.object({
  id: z.number(),
  webhookId: z.string(),
  type: z.string(),
  status: z.enum(['pending', 'sending', 'delivered', 'failed']),
  createdAt: z.string(),
  nextAttemptAt: z.string().nullable(),
  attempts: z.array(webhookAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** `GET /fleet/webhooks/{id}/deliveries`: the newest deliveries first. */
export const webhookDeliveryListSchema = z.object({ deliveries: z.array(webhookDeliverySchema) });

/** What `POST …/test` and `POST …/retry` answer: the delivery queued. */
export const queuedDeliverySchema = z.object({ id: z.number(), webhookId: z.string() });
