import { Hono } from 'hono';
import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import { idParamSchema } from '../../contracts/ids.ts';
import {
  createdWebhookSchema,
  createWebhookRequestSchema,
  queuedDeliverySchema,
  updateWebhookRequestSchema,
  type Webhook,
  type WebhookDelivery,
  webhookDeliveryListSchema,
  webhookListSchema,
  webhookSchema,
} from '../../contracts/webhooks.ts';
import { requireSiteAccess } from '../access/scope.ts';
import type { ServerContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { ApiError, notFound } from '../http/errors.ts';
import type { AuthVariables } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { INTEGRATOR_EXAMPLES } from '../openapi/integrator-examples.ts';
import { describeRoute } from '../openapi/route-notes.ts';
import { newWebhookSecret, sealSecret } from './secret-box.ts';
import { checkUrl, RefusedTarget, resolveAllowed, type TargetRules } from './target-guard.ts';

const endpointParams = z.object({ id: z.uuid({ error: 'id must be a webhook id (a UUID)' }) });
const deliveryParams = z.object({ deliveryId: idParamSchema });

/** How many deliveries `GET …/deliveries` answers, newest first. */
const DELIVERY_PAGE = 50;

const COLUMNS = [
  'id',
  'url',
  'events',
  'site_id',
  'created_at',
  'disabled_at',
  'disabled_reason',
  'failing_since',
] as const;

type EndpointRow = Pick<Selectable<Database['webhook_endpoints']>, (typeof COLUMNS)[number]>;

const iso = (date: Date | null) => (date === null ? null : new Date(date).toISOString());

function asWebhook(row: EndpointRow, siteNames: ReadonlyMap<number, string>): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: row.events as Webhook['events'],
    siteId: row.site_id,
    siteName: row.site_id === null ? null : (siteNames.get(row.site_id) ?? null),
    createdAt: new Date(row.created_at).toISOString(),
    disabledAt: iso(row.disabled_at),
    disabledReason: row.disabled_reason,
    failingSince: iso(row.failing_since),
  };
}

/** The names of the sites `rows` are limited to, in one query. */
async function siteNamesOf(db: Kysely<Database>, rows: readonly EndpointRow[]): Promise<Map<number, string>> {
  const ids = [...new Set(rows.flatMap((row) => (row.site_id === null ? [] : [row.site_id])))];
  if (ids.length === 0) return new Map();
  const sites = await db.selectFrom('sites').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(sites.map((site) => [site.id, site.name]));
}

/** `rows` as their owner reads them, each with its site's name. */
async function asWebhooks(db: Kysely<Database>, rows: readonly EndpointRow[]): Promise<Webhook[]> {
  const names = await siteNamesOf(db, rows);
  return rows.map((row) => asWebhook(row, names));
}

/**
 * A destination a webhook may have: its scheme (https in production) and, resolved now, its
 * addresses (public ones only, unless private targets are allowed). Checked again as each
 * delivery connects.
 * @throws {ApiError} 400 naming `url`.
 */
async function requireAllowedUrl(text: string, rules: TargetRules): Promise<void> {
  try {
    const url = checkUrl(text, rules);
    // Where any address is allowed there is nothing to look up yet: each delivery resolves it.
    if (!rules.allowPrivate) await resolveAllowed(url.hostname.replace(/^\[(.*)\]$/, '$1'), rules);
  } catch (error) {
    const reason =
      error instanceof RefusedTarget
        ? error.message
        : `its host cannot be resolved (${(error as Error).message})`;
    throw new ApiError(400, 'invalid_input', `url: ${reason}`, 'url');
  }
}

/** One of the caller's endpoints; another's, or none, is 404. */
async function requireOwnEndpoint(db: Kysely<Database>, userId: number, id: string): Promise<EndpointRow> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select(COLUMNS)
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw notFound('Webhook');
  return row;
}

/**
 * The caller's webhooks, mounted at `/fleet/webhooks`: create (its signing secret is answered this
 * once), list, change, delete, send a test event, read its deliveries and send one again. An
 * endpoint is its owner's alone: another's answers 404. A person signed in manages them, or a
 * write key of theirs (a read key lists them); either subscribes only to sites its owner sees.
 */
export function webhookRoutes(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  const { db } = ctx;
  const rules = ctx.webhooks.rules;

  app.post(
    '/',
    describeRoute({
      summary: 'Subscribe a URL to events; its signing secret is answered this once',
      tag: 'webhooks',
      details: INTEGRATOR_EXAMPLES.subscribe,
      example: { url: 'https://crm.example.com/hooks/fleet', events: ['alarm.raised', 'device.installed'] },
      responses: {
        201: {
          description: 'The endpoint, with its secret (`secret`), never shown again',
          schema: createdWebhookSchema,
        },
        404: { description: 'No such site, or one the caller cannot see' },
      },
    }),
    validate('json', createWebhookRequestSchema),
    async (c) => {
      const caller = c.get('principal');
      const body = c.req.valid('json');
      if (body.siteId) await requireSiteAccess(db, caller, body.siteId);
      await requireAllowedUrl(body.url, rules);
      const secret = newWebhookSecret();
      const row = await db
        .insertInto('webhook_endpoints')
        .values({
          user_id: caller.id,
          url: body.url,
          events: body.events,
          site_id: body.siteId ?? null,
          secret_sealed: sealSecret(ctx.codeKey, secret),
        })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      c.header('Cache-Control', 'no-store');
      const [webhook] = await asWebhooks(db, [row]);
      return c.json({ ...webhook, secret }, 201);
    },
  );

  app.get(
    '/',
    describeRoute({
      summary: 'Your webhooks, newest first (never their secrets)',
      tag: 'webhooks',
      responses: { 200: { description: 'The endpoints', schema: webhookListSchema } },
    }),
    async (c) => {
      const rows = await db
        .selectFrom('webhook_endpoints')
        .select(COLUMNS)
        .where('user_id', '=', c.get('principal').id)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute();
      return c.json({ webhooks: await asWebhooks(db, rows) });
    },
  );

  app.put(
    '/:id',
    describeRoute({
      summary: 'Change a webhook: its URL, events or site, or switch it off and on',
      tag: 'webhooks',
      example: { events: ['alarm.raised', 'alarm.cleared'], disabled: false },
      responses: {
        200: { description: 'The endpoint', schema: webhookSchema },
        404: { description: 'You hold no such webhook, or the site is not one you see' },
      },
    }),
    validate('param', endpointParams),
    validate('json', updateWebhookRequestSchema),
    async (c) => {
      const caller = c.get('principal');
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      await requireOwnEndpoint(db, caller.id, id);
      if (body.siteId) await requireSiteAccess(db, caller, body.siteId);
      if (body.url !== undefined) await requireAllowedUrl(body.url, rules);
      const row = await db
        .updateTable('webhook_endpoints')
        .set({
          ...(body.url !== undefined && { url: body.url }),
          ...(body.events !== undefined && { events: body.events }),
          ...(body.siteId !== undefined && { site_id: body.siteId }),
          ...(body.disabled === true && {
            disabled_at: new Date(),
            disabled_reason: 'Switched off by its owner',
          }),
          // Switched on again: its failures start counting afresh.
          ...(body.disabled === false && { disabled_at: null, disabled_reason: null, failing_since: null }),
        })
        .where('id', '=', id)
        .where('user_id', '=', caller.id)
        .returning(COLUMNS)
        .executeTakeFirst();
      if (!row) throw notFound('Webhook');
      const [webhook] = await asWebhooks(db, [row]);
      return c.json(webhook);
    },
  );

  app.delete(
    '/:id',
    describeRoute({
      summary: 'Delete a webhook and its deliveries',
      tag: 'webhooks',
      responses: { 204: { description: 'Deleted' }, 404: { description: 'You hold no such webhook' } },
    }),
    validate('param', endpointParams),
    async (c) => {
      const deleted = await db
        .deleteFrom('webhook_endpoints')
        .where('id', '=', c.req.valid('param').id)
        .where('user_id', '=', c.get('principal').id)
        .returning('id')
        .executeTakeFirst();
      if (!deleted) throw notFound('Webhook');
      return c.body(null, 204);
    },
  );

  app.post(
    '/:id/test',
    describeRoute({
      summary: 'Send a webhook.test event to a webhook now; its try is in the deliveries',
      tag: 'webhooks',
      responses: {
        200: { description: 'The delivery, sent (delivered or failed)', schema: queuedDeliverySchema },
        404: { description: 'You hold no such webhook' },
      },
    }),
    validate('param', endpointParams),
    async (c) => {
      const endpoint = await requireOwnEndpoint(db, c.get('principal').id, c.req.valid('param').id);
      return c.json(await ctx.webhooks.sender.sendTest(endpoint.id));
    },
  );

  app.get(
    '/:id/deliveries',
    describeRoute({
      summary:
        "A webhook's deliveries, newest first, with each try (time, status, duration, the answer's first bytes)",
      tag: 'webhooks',
      responses: {
        200: { description: `The newest ${DELIVERY_PAGE} deliveries`, schema: webhookDeliveryListSchema },
        404: { description: 'You hold no such webhook' },
      },
    }),
    validate('param', endpointParams),
    async (c) => {
      const endpoint = await requireOwnEndpoint(db, c.get('principal').id, c.req.valid('param').id);
      return c.json({ deliveries: await deliveriesOf(db, endpoint.id) });
    },
  );

  app.post(
    '/deliveries/:deliveryId/retry',
    describeRoute({
      summary: 'Send one delivery again now, with the same webhook-id',
      tag: 'webhooks',
      responses: {
        200: { description: 'The delivery, sent again', schema: queuedDeliverySchema },
        404: { description: 'No such delivery of a webhook you hold' },
        409: { description: 'It is being sent at this moment (delivery_busy)' },
      },
    }),
    validate('param', deliveryParams),
    async (c) => {
      const { deliveryId } = c.req.valid('param');
      const delivery = await db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
        .select(['d.id', 'd.message_id'])
        .where('d.id', '=', deliveryId)
        .where('e.user_id', '=', c.get('principal').id)
        .executeTakeFirst();
      if (!delivery) throw notFound('Delivery');
      if (!(await ctx.webhooks.sender.sendNow(delivery.id)))
        throw new ApiError(
          409,
          'delivery_busy',
          'This delivery is being sent at this moment; look again shortly',
        );
      return c.json({ id: delivery.id, webhookId: delivery.message_id });
    },
  );
  return app;
}

/** An endpoint's newest deliveries with their tries, oldest try first. */
async function deliveriesOf(db: Kysely<Database>, endpointId: string): Promise<WebhookDelivery[]> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select(['id', 'message_id', 'type', 'status', 'created_at', 'next_attempt_at'])
    .where('endpoint_id', '=', endpointId)
    .orderBy('id', 'desc')
    .limit(DELIVERY_PAGE)
    .execute();
  if (rows.length === 0) return [];
  const attempts = await db
    .selectFrom('webhook_attempts')
    .select(['delivery_id', 'at', 'status', 'duration_ms', 'response', 'error'])
    .where(
      'delivery_id',
      'in',
      rows.map((row) => row.id),
    )
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    webhookId: row.message_id,
    type: row.type,
    status: row.status,
    createdAt: new Date(row.created_at).toISOString(),
    nextAttemptAt: row.status === 'pending' ? new Date(row.next_attempt_at).toISOString() : null,
    attempts: attempts
      .filter((attempt) => attempt.delivery_id === row.id)
      .map((attempt) => ({
        at: new Date(attempt.at).toISOString(),
        status: attempt.status,
        durationMs: attempt.duration_ms,
        response: attempt.response,
        error: attempt.error,
      })),
  }));
}
