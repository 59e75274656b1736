import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { type Kysely, sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { actorOf, mayReceiveSiteEvents } from '../../contracts/access-policy.ts';
import { errorMessage } from '../../contracts/error-message.ts';
import { WEBHOOK_TEST_EVENT } from '../../contracts/webhooks.ts';
import type { Database } from '../db/schema.ts';
import type { Mailer } from '../mail/mailer.ts';
import { openSecret } from './secret-box.ts';
import { checkUrl, guardedLookup, type Resolve, type TargetRules } from './target-guard.ts';

/**
 * When a failed delivery is tried again: after each of `delaysSeconds` in turn (the Standard
 * Webhooks schedule), for at most `giveUpAfterSeconds` after its first try; an endpoint whose
 * deliveries have failed for that long is disabled and its owner mailed.
 */
export interface WebhookRetry {
  delaysSeconds: readonly number[];
  giveUpAfterSeconds: number;
}

/** 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: the last try falls after the 24 hours, so it is never made. */
export const STANDARD_RETRY: WebhookRetry = {
  delaysSeconds: [5, 300, 1800, 7200, 18_000, 36_000, 36_000],
  giveUpAfterSeconds: 86_400,
};

/** How long an endpoint has to answer, headers and body. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** How much of an answer is read (the rest is not waited for); how much of it is kept. */
const READ_CAP = 4096;
const KEEP_CHARS = 500;
/** How long a claimed delivery is held by one process before another may try it. */
const LEASE_SECONDS = 60;
const BATCH = 20;
/** An advisory lock: one process fans events out at a time, so deliveries follow events' order. */
const FAN_OUT_LOCK = 7_261_024;
/** Delivered and failed deliveries, and fanned-out events, are kept this long. */
const KEEP_DAYS = 30;

export interface WebhookSenderOptions {
  db: Kysely<Database>;
  codeKey: Buffer;
  mailer: Mailer;
  rules: TargetRules;
  /** `COMPANY_DOMAIN`: who is company staff (who sees every site). */
  companyDomain: string;
  /** Where the app is, for the mail that says an endpoint was disabled. */
  appUrl: string;
  retry?: WebhookRetry;
  /** The resolver connections ask (a test gives its own); the system's by default. */
  resolve?: Resolve;
}

interface Claimed {
  id: number;
  endpoint_id: string;
  message_id: string;
  body: string;
  attempts: number;
  first_attempt_at: Date;
  status_before: string;
}

/** What one try came to. */
interface Outcome {
  status: number | null;
  response: string | null;
  error: string | null;
  durationMs: number;
}

/** A Standard Webhooks message id: `msg_` and 24 random bytes, base64url. */
export const newMessageId = () => `msg_${randomBytes(18).toString('base64url')}`;

/** The body of every webhook: `{type, timestamp, data}` (Standard Webhooks). */
export const webhookBody = (type: string, at: Date, data: unknown) =>
  JSON.stringify({ type, timestamp: at.toISOString(), data });

/**
 * POST `body` to `url` once: the address checked as the socket connects, no redirect followed,
 * at most `WEBHOOK_TIMEOUT_MS`, at most `READ_CAP` bytes of the answer read.
 */
function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  rules: TargetRules,
  resolve: Resolve | undefined,
): Promise<{ status: number; response: string }> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((done, fail) => {
    let settled = false;
    const chunks: Buffer[] = [];
    let answer: IncomingMessage | undefined;
    const finish = () => {
      if (settled || !answer) return;
      settled = true;
      clearTimeout(timer);
      done({ status: answer.statusCode ?? 0, response: Buffer.concat(chunks).toString('utf8') });
      answer.destroy();
    };
    const request = send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: guardedLookup(rules, resolve),
        agent: false,
      },
      (response) => {
        answer = response;
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= READ_CAP) finish();
        });
        response.on('end', finish);
        response.on('close', finish);
        response.on('error', finish);
      },
    );
    const timer = setTimeout(() => {
      // An answer whose status came is an answer, however slow its body.
      if (answer) return finish();
      settled = true;
      request.destroy();
      fail(new Error(`no answer within ${WEBHOOK_TIMEOUT_MS / 1000} s`));
    }, WEBHOOK_TIMEOUT_MS);
    request.on('error', (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fail(error);
    });
    request.end(body);
  });
}

/**
 * The webhook outbox and its worker, as the mail outbox works: a pass fans new events out to the
 * endpoints that get them, claims due deliveries (a lease, so several processes share the queue),
 * sends each signed (Standard Webhooks), and records the try. Each endpoint gets its deliveries in
 * order: only its oldest open delivery is ever claimed, so one failing holds the ones after it
 * until it is delivered or given up.
 */
export class WebhookSender {
  retry: WebhookRetry;
  private chain: Promise<void> = Promise.resolve();
  private waiting = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: WebhookSenderOptions) {
    this.retry = options.retry ?? STANDARD_RETRY;
  }

  /** Wake the worker (events were written, a retry is due). */
  kick(): void {
    if (this.waiting) return;
    this.waiting = true;
    void this.enqueuePass();
  }

  /** Fan out and send everything due now, after any pass under way; resolves when done. */
  flush(): Promise<void> {
    return this.enqueuePass();
  }

  /** Look for events and due retries every `intervalMs`. */
  start(intervalMs = 2_000): void {
    this.timer ??= setInterval(() => this.kick(), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.chain;
  }

  private enqueuePass(): Promise<void> {
    this.chain = this.chain
      .then(() => {
        this.waiting = false;
        return this.pass();
      })
      .catch((error: unknown) => console.error('[webhooks] pass failed:', error));
    return this.chain;
  }

  private async pass(): Promise<void> {
    while (await this.fanOut()) {
      // another batch of events
    }
    for (;;) {
      const batch = await this.claim();
      // Each endpoint's next delivery is claimable once the one before it is delivered.
      for (const delivery of batch) await this.deliver(delivery, 'queue');
      if (batch.length === 0) return;
    }
  }

  /**
   * Turn new events into deliveries, one per endpoint that subscribes to the event and whose owner
   * sees its site now (the access policy). Answers whether there may be more.
   */
  private async fanOut(): Promise<boolean> {
    const { db, companyDomain } = this.options;
    return db.transaction().execute(async (trx) => {
      const locked = await sql<{
        locked: boolean;
      }>`SELECT pg_try_advisory_xact_lock(${FAN_OUT_LOCK}) AS locked`.execute(trx);
      if (!locked.rows[0]?.locked) return false;
      const events = await trx
        .selectFrom('webhook_events')
        .select(['id', 'type', 'site_id', 'data', 'at'])
        .where('fanned_out', '=', false)
        .orderBy('id')
        .limit(100)
        .execute();
      if (events.length === 0) return false;
      const endpoints = await trx
        .selectFrom('webhook_endpoints as e')
        .innerJoin('users as u', 'u.id', 'e.user_id')
        .select(['e.id', 'e.events', 'e.site_id', 'u.id as userId', 'u.role', 'u.main_email'])
        .where('e.disabled_at', 'is', null)
        .orderBy('e.id')
        .execute();
      const siteIds = [
        ...new Set(events.flatMap((event) => (event.site_id === null ? [] : [event.site_id]))),
      ];
      const grants =
        endpoints.length > 0 && siteIds.length > 0
          ? await trx
              .selectFrom('site_access')
              .select(['user_id', 'site_id', 'roles', 'access'])
              .where(
                'user_id',
                'in',
                endpoints.map((row) => row.userId),
              )
              .where('site_id', 'in', siteIds)
              .execute()
          : [];
      const deliveries = events.flatMap((event) => {
        const body = webhookBody(event.type, new Date(event.at), event.data);
        return endpoints
          .filter((row) => {
            if (!row.events.includes(event.type)) return false;
            if (row.site_id !== null && row.site_id !== event.site_id) return false;
            const grant = grants.find((g) => g.user_id === row.userId && g.site_id === event.site_id);
            return mayReceiveSiteEvents(
              actorOf({ id: row.userId, role: row.role, email: row.main_email }, companyDomain),
              grant ?? null,
            );
          })
          .map((row) => ({ endpoint_id: row.id, message_id: newMessageId(), type: event.type, body }));
      });
      // In slices, well inside a statement's limit of parameters, in the events' order.
      for (let from = 0; from < deliveries.length; from += 1000)
        await trx
          .insertInto('webhook_deliveries')
          .values(deliveries.slice(from, from + 1000))
          .execute();
      await trx
        .updateTable('webhook_events')
        .set({ fanned_out: true })
        .where(
          'id',
          'in',
          events.map((event) => event.id),
        )
        .execute();
      return events.length === 100;
    });
  }

  /** Claim the due deliveries that are the oldest open one of their (enabled) endpoint. */
  private async claim(): Promise<Claimed[]> {
    const result = await sql<Claimed>`
      UPDATE webhook_deliveries d SET status = 'sending', attempts = d.attempts + 1,
        first_attempt_at = coalesce(d.first_attempt_at, now()),
        next_attempt_at = now() + make_interval(secs => ${LEASE_SECONDS})
      FROM (
        SELECT d.id, d.status FROM webhook_deliveries d
        JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.disabled_at IS NULL
        WHERE d.status IN ('pending', 'sending') AND d.next_attempt_at <= now()
          AND NOT EXISTS (
            SELECT 1 FROM webhook_deliveries b
            WHERE b.endpoint_id = d.endpoint_id AND b.status IN ('pending', 'sending') AND b.id < d.id)
        ORDER BY d.id LIMIT ${BATCH} FOR UPDATE OF d SKIP LOCKED) due
      WHERE d.id = due.id
      RETURNING d.id, d.endpoint_id, d.message_id, d.body, d.attempts, d.first_attempt_at,
        due.status AS status_before`.execute(this.options.db);
    return result.rows;
  }

  /**
   * Send one delivery again now (`POST …/deliveries/{id}/retry`), whatever its state but one being
   * sent; answers false when it is being sent by the worker. A failure of a delivery that waits
   * for its next try leaves that try where it was; of a finished one, it is failed again.
   */
  async sendNow(deliveryId: number): Promise<boolean> {
    const claimed = await sql<Claimed>`
      UPDATE webhook_deliveries d SET status = 'sending', attempts = d.attempts + 1,
        first_attempt_at = coalesce(d.first_attempt_at, now()),
        next_attempt_at = now() + make_interval(secs => ${LEASE_SECONDS})
      FROM (SELECT id, status, next_attempt_at FROM webhook_deliveries WHERE id = ${deliveryId} FOR UPDATE) before
      WHERE d.id = before.id AND (before.status <> 'sending' OR before.next_attempt_at <= now())
      RETURNING d.id, d.endpoint_id, d.message_id, d.body, d.attempts, d.first_attempt_at,
        before.status AS status_before`.execute(this.options.db);
    const delivery = claimed.rows[0];
    if (!delivery) return false;
    await this.deliver(delivery, 'once');
    this.kick();
    return true;
  }

  /**
   * Send `webhook.test` to one endpoint now, outside its queue (a failure is not tried again).
   * Answers the delivery's id and `webhook-id`.
   */
  async sendTest(endpointId: string): Promise<{ id: number; webhookId: string }> {
    const messageId = newMessageId();
    const row = await this.options.db
      .insertInto('webhook_deliveries')
      .values({
        endpoint_id: endpointId,
        message_id: messageId,
        type: WEBHOOK_TEST_EVENT,
        body: webhookBody(WEBHOOK_TEST_EVENT, new Date(), { message: 'A test event from Fleet Manager' }),
        status: 'sending',
        attempts: 1,
        first_attempt_at: new Date(),
        next_attempt_at: sql<Date>`now() + make_interval(secs => ${LEASE_SECONDS})`,
      })
      .returning(['id', 'body', 'first_attempt_at'])
      .executeTakeFirstOrThrow();
    await this.deliver(
      {
        id: row.id,
        endpoint_id: endpointId,
        message_id: messageId,
        body: row.body,
        attempts: 1,
        first_attempt_at: row.first_attempt_at ?? new Date(),
        status_before: 'failed',
      },
      'once',
    );
    return { id: row.id, webhookId: messageId };
  }

  /** Sign and send one delivery, record the try, and schedule what follows. */
  private async deliver(delivery: Claimed, mode: 'queue' | 'once'): Promise<void> {
    const { db, codeKey, rules, resolve } = this.options;
    const endpoint = await db
      .selectFrom('webhook_endpoints')
      .select(['url', 'secret_sealed'])
      .where('id', '=', delivery.endpoint_id)
      .executeTakeFirst();
    if (!endpoint) return;
    const started = Date.now();
    let outcome: Outcome;
    try {
      const url = checkUrl(endpoint.url, rules);
      const at = new Date();
      const signature = new Webhook(openSecret(codeKey, endpoint.secret_sealed)).sign(
        delivery.message_id,
        at,
        delivery.body,
      );
      const answer = await post(
        url,
        {
          'content-type': 'application/json',
          'user-agent': 'FleetManager-Webhooks/1',
          'webhook-id': delivery.message_id,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': signature,
        },
        delivery.body,
        rules,
        resolve,
      );
      outcome = {
        status: answer.status,
        // Text PostgreSQL can hold, whatever the endpoint answered (a NUL would fail the record).
        response: answer.response.replaceAll('\u0000', '').slice(0, KEEP_CHARS),
        error: null,
        durationMs: Date.now() - started,
      };
    } catch (error) {
      outcome = {
        status: null,
        response: null,
        error: errorMessage(error).replaceAll('\u0000', '').slice(0, KEEP_CHARS),
        durationMs: Date.now() - started,
      };
    }
    await this.record(delivery, outcome, mode);
  }

  private async record(delivery: Claimed, outcome: Outcome, mode: 'queue' | 'once'): Promise<void> {
    const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    const { retry } = this;
    const disabled = await this.options.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('webhook_attempts')
        .values({
          delivery_id: delivery.id,
          at: new Date(Date.now() - outcome.durationMs),
          status: outcome.status,
          duration_ms: outcome.durationMs,
          response: outcome.response,
          error: outcome.error,
        })
        .execute();
      if (ok) {
        await trx
          .updateTable('webhook_deliveries')
          .set({ status: 'delivered', next_attempt_at: new Date() })
          .where('id', '=', delivery.id)
          .execute();
        await trx
          .updateTable('webhook_endpoints')
          .set({ failing_since: null })
          .where('id', '=', delivery.endpoint_id)
          .execute();
        return false;
      }
      const age = (Date.now() - new Date(delivery.first_attempt_at).getTime()) / 1000;
      const delay = retry.delaysSeconds[delivery.attempts - 1];
      // A try made by hand leaves a waiting delivery's next try where it was.
      const keepWaiting = mode === 'once' && delivery.status_before === 'pending';
      const again =
        keepWaiting || (mode === 'queue' && delay !== undefined && age + delay < retry.giveUpAfterSeconds);
      await trx
        .updateTable('webhook_deliveries')
        .set(
          again
            ? {
                status: 'pending',
                next_attempt_at: keepWaiting
                  ? sql<Date>`now()`
                  : sql<Date>`now() + make_interval(secs => ${delay ?? 0})`,
              }
            : { status: 'failed', next_attempt_at: new Date() },
        )
        .where('id', '=', delivery.id)
        .execute();
      const endpoint = await trx
        .updateTable('webhook_endpoints')
        .set({ failing_since: sql<Date>`coalesce(failing_since, now())` })
        .where('id', '=', delivery.endpoint_id)
        .returning(['failing_since', 'disabled_at'])
        .executeTakeFirst();
      const failingFor = endpoint?.failing_since
        ? (Date.now() - new Date(endpoint.failing_since).getTime()) / 1000
        : 0;
      if (!endpoint || endpoint.disabled_at !== null || failingFor < retry.giveUpAfterSeconds) return false;
      await this.disable(trx, delivery.endpoint_id, new Date(endpoint.failing_since ?? Date.now()));
      return true;
    });
    if (disabled) this.options.mailer.kick();
  }

  /** Switch an endpoint off after it failed for the whole retry window; its open deliveries fail; its owner is mailed. */
  private async disable(trx: Kysely<Database>, endpointId: string, since: Date): Promise<void> {
    const hours = Math.round(this.retry.giveUpAfterSeconds / 3600);
    const reason = `Every delivery failed for ${hours} hours (since ${since.toISOString()})`;
    const row = await trx
      .updateTable('webhook_endpoints as e')
      .from('users as u')
      .set({ disabled_at: new Date(), disabled_reason: reason })
      .whereRef('u.id', '=', 'e.user_id')
      .where('e.id', '=', endpointId)
      .returning(['e.url', 'u.main_email'])
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('webhook_deliveries')
      .set({ status: 'failed' })
      .where('endpoint_id', '=', endpointId)
      .where('status', 'in', ['pending', 'sending'])
      .execute();
    await this.options.mailer.queue(
      {
        to: row.main_email,
        subject: '[Fleet Manager] A webhook was disabled: its deliveries failed for a day',
        body: [
          'Your webhook to this address was disabled:',
          row.url,
          `${reason}.`,
          '',
          'Events are not sent to it any more. Once the endpoint answers again, switch it on under',
          `Account → Webhooks (${this.options.appUrl}/webhooks), where each try and its answer are listed;`,
          'the deliveries that failed can be sent again from there.',
        ].join('\n'),
      },
      trx,
    );
  }

  /** Forget finished deliveries and fanned-out events older than `KEEP_DAYS`. */
  async prune(): Promise<void> {
    const { db } = this.options;
    const before = sql<Date>`now() - make_interval(days => ${KEEP_DAYS})`;
    await db
      .deleteFrom('webhook_deliveries')
      .where('status', 'in', ['delivered', 'failed'])
      .where('created_at', '<', before)
      .execute();
    await db.deleteFrom('webhook_events').where('fanned_out', '=', true).where('at', '<', before).execute();
  }
}
