import { type Kysely, sql } from 'kysely';
import { errorMessage } from '../../contracts/error-message.ts';
import { type CodePurpose, createCode } from '../auth/one-time-codes.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/schema.ts';
import { oneLine } from './quoted-name.ts';
import type { MailAttachment, MailTransport } from './transports.ts';

/** A message to queue. With `code`, the body holds `{code}`, replaced by a new code when sent. */
export interface MailMessage {
  to: string;
  subject: string;
  body: string;
  code?: { userId: number; purpose: CodePurpose };
  /** Files sent with the message, kept in the outbox with it until it is pruned. */
  attachments?: MailAttachment[];
}

/** How the worker retries: attempts before `failed`, first delay (doubling), longest delay. */
export interface RetryPolicy {
  maxAttempts: number;
  firstDelaySeconds: number;
  maxDelaySeconds: number;
}

/** Sends the service's e-mails through the `outbox` table, never inline in a request. */
export interface Mailer {
  /**
   * Queue a message. Given a transaction, the message is queued with it: call `kick()` once it
   * has committed; otherwise the worker is woken at once.
   */
  queue(message: MailMessage, db?: Kysely<Database>): Promise<void>;
  /** Wake the worker. */
  kick(): void;
  /** Deliver everything due now, after any pass under way; resolves when done. */
  flush(): Promise<void>;
  /** Poll for due mail every `intervalMs` (messages queued elsewhere, retries). */
  start(intervalMs?: number): void;
  /** Stop polling and wait for the pass under way. */
  stop(): Promise<void>;
}

/** How long a claimed message is held by one process before another may retry it. */
const LEASE_SECONDS = 120;
const BATCH = 20;

type Claimed = {
  id: number;
  to_address: string;
  subject: string;
  body: string;
  attempts: number;
  code_user_id: number | null;
  code_purpose: CodePurpose | null;
};

/**
 * The outbox and its worker. A pass claims due messages (a lease, so several processes share the
 * queue), sends each through the transport, and marks it `sent`, or schedules a retry with
 * doubling delay, or marks it `failed` after `maxAttempts`.
 */
export function createMailer(
  db: Kysely<Database>,
  transport: MailTransport,
  retry: RetryPolicy,
  codeKey: Buffer,
  /** The server's clock, from which a code mailed expires. */
  now: Clock,
): Mailer {
  let chain: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;

  const delaySeconds = (attempts: number) =>
    Math.min(retry.maxDelaySeconds, retry.firstDelaySeconds * 2 ** Math.max(0, attempts - 1));

  async function claim(): Promise<Claimed[]> {
    await db
      .updateTable('outbox')
      .set({ status: 'failed', last_error: sql`coalesce(last_error, 'no answer from the mail server')` })
      .where('status', '=', 'sending')
      .where('next_attempt_at', '<=', sql<Date>`now()`)
      .where('attempts', '>=', retry.maxAttempts)
      .execute();
    const result = await sql<Claimed>`
      UPDATE outbox SET status = 'sending', attempts = attempts + 1,
        next_attempt_at = now() + make_interval(secs => ${LEASE_SECONDS})
      WHERE id IN (
        SELECT id FROM outbox
        WHERE status IN ('pending', 'sending') AND next_attempt_at <= now() AND attempts < ${retry.maxAttempts}
        ORDER BY id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
      RETURNING id, to_address, subject, body, attempts, code_user_id, code_purpose`.execute(db);
    return result.rows;
  }

  async function deliver(message: Claimed): Promise<void> {
    try {
      // The code is made now, so it never rests anywhere but as its hash.
      const code =
        message.code_user_id !== null && message.code_purpose !== null
          ? await createCode(db, codeKey, message.code_user_id, message.code_purpose, now)
          : undefined;
      const text = code ? message.body.replaceAll('{code}', code) : message.body;
      const files = await db
        .selectFrom('outbox_attachments')
        .select(['filename', 'content_type', 'content'])
        .where('outbox_id', '=', message.id)
        .orderBy('id')
        .execute();
      const attachments = files.map((file) => ({
        filename: file.filename,
        contentType: file.content_type,
        content: Buffer.from(file.content),
      }));
      await transport.send({
        to: message.to_address,
        subject: message.subject,
        text,
        code,
        ...(attachments.length > 0 && { attachments }),
      });
      await db
        .updateTable('outbox')
        .set({ status: 'sent', sent_at: new Date(), last_error: null })
        .where('id', '=', message.id)
        .execute();
    } catch (error) {
      const reason = errorMessage(error).slice(0, 500);
      const failed = message.attempts >= retry.maxAttempts;
      console.error(`[mail] attempt ${message.attempts} to ${message.to_address} failed: ${reason}`);
      await db
        .updateTable('outbox')
        .set({
          status: failed ? 'failed' : 'pending',
          last_error: reason,
          next_attempt_at: sql<Date>`now() + make_interval(secs => ${delaySeconds(message.attempts)})`,
        })
        .where('id', '=', message.id)
        .execute();
    }
  }

  async function pass(): Promise<void> {
    for (;;) {
      const batch = await claim();
      for (const message of batch) await deliver(message);
      if (batch.length < BATCH) return;
    }
  }

  // One pass at a time per process; kicks while a pass waits to start add nothing.
  let waiting = false;
  const enqueuePass = (): Promise<void> => {
    chain = chain
      .then(() => {
        waiting = false;
        return pass();
      })
      .catch((error: unknown) => console.error('[mail] outbox pass failed:', error));
    return chain;
  };

  const mailer: Mailer = {
    async queue(message, into) {
      const store = async (q: Kysely<Database>) => {
        const row = await q
          .insertInto('outbox')
          .values({
            to_address: message.to,
            // One line whatever the caller put in it: a subject never carries a header of its own.
            subject: oneLine(message.subject),
            body: message.body,
            code_user_id: message.code?.userId ?? null,
            code_purpose: message.code?.purpose ?? null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        for (const file of message.attachments ?? [])
          await q
            .insertInto('outbox_attachments')
            .values({
              outbox_id: row.id,
              filename: file.filename,
              content_type: file.contentType,
              content: file.content,
            })
            .execute();
      };
      // A message and its files are queued together or not at all.
      if (into) await store(into);
      else if (message.attachments?.length) await db.transaction().execute(store);
      else await store(db);
      if (!into) mailer.kick();
    },
    kick() {
      if (waiting) return;
      waiting = true;
      void enqueuePass();
    },
    flush: () => enqueuePass(),
    start(intervalMs = 5_000) {
      timer ??= setInterval(() => mailer.kick(), intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await chain;
    },
  };
  return mailer;
}
