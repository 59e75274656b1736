import nodemailer from 'nodemailer';

/** A file sent with a message (the commissioning report). */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

/** One message as it leaves: the text holds the one-time code, if any, which is also given alone. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  code?: string;
  attachments?: MailAttachment[];
}

/** Where the outbox worker delivers; a rejection counts as a failed attempt. */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
}

/** Delivery over SMTP (`smtp://user:pass@host:587`), with timeouts so an outage fails fast. */
export function smtpTransport(url: string, from: string): MailTransport {
  // nodemailer waits up to 2 minutes for a dead server; a retry later is better than a stuck queue.
  const withTimeouts = new URL(url);
  for (const [name, ms] of [
    ['connectionTimeout', 10_000],
    ['greetingTimeout', 10_000],
    ['socketTimeout', 30_000],
  ] as const) {
    if (!withTimeouts.searchParams.has(name)) withTimeouts.searchParams.set(name, String(ms));
  }
  const transport = nodemailer.createTransport(withTimeouts.toString());
  return {
    async send(mail) {
      await transport.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.attachments && { attachments: mail.attachments }),
      });
    },
  };
}

/**
 * Delivery to the log, for a machine without SMTP. Codes are blanked unless `showCodes` (the
 * `MAIL_LOG_CODES=1` development flag) is on.
 */
export function logTransport(showCodes: boolean, log: (line: string) => void = console.log): MailTransport {
  return {
    async send(mail) {
      const blank = Boolean(mail.code) && !showCodes;
      const text = blank && mail.code ? mail.text.replaceAll(mail.code, '########') : mail.text;
      const hint = blank ? '\n(the code is not logged; MAIL_LOG_CODES=1 shows codes in development)' : '';
      const files = (mail.attachments ?? [])
        .map((file) => `\n[attached: ${file.filename}, ${file.contentType}, ${file.content.length} bytes]`)
        .join('');
      log(`[mail] to ${mail.to}: ${mail.subject}\n${text}${files}${hint}`);
    },
  };
}
