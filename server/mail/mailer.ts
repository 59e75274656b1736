import type { Kysely } from 'kysely';
import nodemailer from 'nodemailer';
import type { Database } from '../db/schema.ts';

/** Sends the service's e-mails (access codes). */
export interface Mailer {
  send(to: string, subject: string, body: string): Promise<void>;
}

/**
 * With `smtpUrl`, mail goes out over SMTP. Without, it lands in the `outbox` table and the log,
 * so the reset and access-code flows work on a local machine.
 */
export function createMailer(db: Kysely<Database>, from: string, smtpUrl?: string): Mailer {
  const transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : undefined;
  return {
    async send(to, subject, body) {
      const row = await db
        .insertInto('outbox')
        .values({ to_address: to, subject, body })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (!transport) {
        console.log(`[mail outbox] to ${to}: ${subject}\n${body}`);
        return;
      }
      await transport.sendMail({ from, to, subject, text: body });
      await db.updateTable('outbox').set({ sent_at: new Date() }).where('id', '=', row.id).execute();
    },
  };
}
