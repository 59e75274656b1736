import { createServer as createTcpServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';

// A minimal SMTP receiver: enough of RFC 5321 for one plain (no TLS, no auth) delivery.
function smtpReceiver(messages: string[]): Server {
  return createTcpServer((socket) => {
    let data = false;
    let buffer = '';
    socket.write('220 test.example ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      if (data) {
        const end = buffer.indexOf('\r\n.\r\n');
        if (end === -1) return;
        messages.push(buffer.slice(0, end));
        buffer = buffer.slice(end + 5);
        data = false;
        socket.write('250 queued\r\n');
      }
      let newline = buffer.indexOf('\r\n');
      while (!data && newline !== -1) {
        const line = buffer.slice(0, newline).toUpperCase();
        buffer = buffer.slice(newline + 2);
        if (line.startsWith('EHLO') || line.startsWith('HELO')) socket.write('250 test.example\r\n');
        else if (line.startsWith('DATA')) {
          data = true;
          socket.write('354 go ahead\r\n');
        } else if (line.startsWith('QUIT')) socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
        newline = buffer.indexOf('\r\n');
      }
    });
  });
}

const messages: string[] = [];
const receiver = smtpReceiver(messages);
let t: TestServer;
beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const address = receiver.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  t = await startTestServer({ SMTP_URL: `smtp://127.0.0.1:${port}?ignoreTLS=true` });
});
afterAll(async () => {
  await t.close();
  receiver.close();
});

describe('mail over SMTP', () => {
  it('sends the reset code over SMTP when SMTP_URL is set, and marks the outbox row sent without the code', async () => {
    const answer = await t.call('POST', '/config/users/password-reset', {
      body: { main_email: 'owner@homeowner.example' },
    });
    expect(answer.status).toBe(202);
    await t.server.ctx.mailer.flush();
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/To: owner@homeowner\.example/);
    expect(messages[0]).toMatch(/Your access code is \d{8}/);
    const rows = await t.server.ctx.db
      .selectFrom('outbox')
      .select(['to_address', 'status', 'sent_at', 'body'])
      .execute();
    expect(rows).toEqual([
      {
        to_address: 'owner@homeowner.example',
        status: 'sent',
        sent_at: expect.any(Date),
        body: expect.stringContaining('Your access code is {code}.'),
      },
    ]);
  });

  it('sends an attachment (the commissioning report) over SMTP as a MIME part', async () => {
    const pdf = Buffer.from('%PDF-1.7 a tiny stand-in for a report\n%%EOF\n');
    await t.server.ctx.mailer.queue({
      to: 'owner@homeowner.example',
      subject: 'Commissioning report: Okafor Residence',
      body: 'The report is attached as a PDF.',
      attachments: [{ filename: 'commissioning-report.pdf', contentType: 'application/pdf', content: pdf }],
    });
    await t.server.ctx.mailer.flush();
    const message = messages.at(-1) ?? '';
    expect(message).toMatch(/Content-Type: application\/pdf; name=commissioning-report\.pdf/);
    expect(message).toMatch(/Content-Disposition: attachment; filename=commissioning-report\.pdf/);
    const base64 = /filename=commissioning-report\.pdf\r\n\r\n([A-Za-z0-9+/=\r\n]+)/.exec(message)?.[1] ?? '';
    expect(Buffer.from(base64.replace(/\r\n/g, ''), 'base64')).toEqual(pdf);
  });
});
