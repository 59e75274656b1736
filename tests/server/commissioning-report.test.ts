import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InstalledDevice } from '../../contracts/installs.ts';
import { pdfText } from '../pdf-text.ts';
import { IDS, startTestServer, type TestServer } from './harness.ts';

/**
 * The commissioning report of a site: a PDF whose text holds the site, its people, every device
 * and the settings last written and verified from the history, with who wrote them; mailed to
 * the site's owner through the outbox with the PDF attached.
 */
let t: TestServer;
const token = { admin: '', installerA: '', installerB: '', owner: '' };
const SITE = IDS.siteOfOwner;

beforeAll(async () => {
  t = await startTestServer();
  for (const who of ['admin', 'installerA', 'installerB', 'owner'] as const)
    token[who] = (await t.login(who)).access_token;
  const device = await t.call('POST', `/config/fleet/sites/${SITE}/installs`, {
    token: token.installerA,
    body: { serial: 'HX5K-26-000701', modelId: 'HX-5000', name: 'Garage inverter' },
  });
  expect((device.body as InstalledDevice).serial).toBe('HX5K-26-000701');
  for (const [maxCharge, template] of [
    ['40', undefined],
    ['35', 'Standard hybrid'],
  ] as const) {
    const answer = await t.call('POST', '/config/fleet/devices/HX5K-26-000701/config-history', {
      token: token.installerA,
      body: {
        id: crypto.randomUUID(),
        writtenAt: new Date().toISOString(),
        transport: 'web-bluetooth',
        ...(template && { template }),
        changes: [
          { field: 'maxChargeCurrent', label: 'Max charge current', oldValue: '50', newValue: maxCharge },
          ...(template
            ? []
            : [{ field: 'workMode', label: 'Work mode', oldValue: 'Self-use', newValue: 'Backup' }]),
        ],
      },
    });
    expect(answer.status).toBe(201);
  }
});
afterAll(() => t.close());

async function report(who: keyof typeof token) {
  const response = await fetch(`${t.origin}/config/fleet/sites/${SITE}/commissioning-report`, {
    headers: { 'api-key': t.server.ctx.env.API_KEY, authorization: `Bearer ${token[who]}` },
  });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

describe('the commissioning report', () => {
  it('is a PDF holding the site, its people and each device with its last verified settings', async () => {
    const { response, bytes } = await report('owner');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="commissioning-report-.+\.pdf"$/,
    );
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    const text = pdfText(bytes).replace(/\s+/g, ' ');
    for (const expected of [
      'Commissioning report',
      'Olivia Homeowner <owner@homeowner.example>',
      'Sam Solarpros <installer@solarpros.example>',
      'solarpros.example',
      'Garage inverter',
      'HX5K-26-000701',
      'Helios HX-5000 Hybrid Inverter',
      'Template applied Standard hybrid',
      'Battery: Max charge current 35 A installer@solarpros.example',
      'Schedule: Work mode Backup',
    ])
      expect(text).toContain(expected);
    expect(text).not.toContain('Max charge current 40');
  });

  it("prints its times in the site's time zone, and names the zone", async () => {
    const { bytes } = await report('installerA');
    const text = pdfText(bytes).replace(/\s+/g, ' ');
    const installed = await t.server.ctx.db
      .selectFrom('devices')
      .select('installed_at')
      .where('serial', '=', 'HX5K-26-000701')
      .executeTakeFirstOrThrow();
    // The demo's first site lies in Austin, Texas. Swedish dates read as ISO: 2026-03-04 07:05.
    const chicago = new Intl.DateTimeFormat('sv-SE', {
      timeZone: 'America/Chicago',
      dateStyle: 'short',
      timeStyle: 'short',
    }).format(new Date(installed.installed_at));
    expect(text).toContain('Time zone America/Chicago');
    expect(text).toMatch(new RegExp(`Installed ${chicago} C[SD]T`));
  });

  it('answers 404 to an installer who cannot see the site', async () => {
    expect((await report('installerB')).response.status).toBe(404);
  });
});

describe('sending the report to the owner', () => {
  it('mails the PDF to the site owner through the outbox', async () => {
    const answer = await t.call('POST', `/config/fleet/sites/${SITE}/commissioning-report/send`, {
      token: token.installerA,
    });
    expect(answer).toMatchObject({
      status: 202,
      body: { message: expect.stringContaining('owner@homeowner.example') },
    });
    await t.server.ctx.mailer.flush();
    const mail = t.mail.sent.at(-1);
    expect(mail).toMatchObject({
      to: 'owner@homeowner.example',
      subject: expect.stringContaining('Commissioning report'),
    });
    const [attachment] = mail?.attachments ?? [];
    expect(attachment?.contentType).toBe('application/pdf');
    expect(pdfText(attachment?.content ?? new Uint8Array())).toContain('HX5K-26-000701');
  });

  it("answers 403 to the site's owner and 409 for a site without an owner", async () => {
    const asOwner = await t.call('POST', `/config/fleet/sites/${SITE}/commissioning-report/send`, {
      token: token.owner,
    });
    expect(asOwner.status).toBe(403);
    const noOwner = await t.call('POST', `/config/fleet/sites/${IDS.siteOfA}/commissioning-report/send`, {
      token: token.installerA,
    });
    expect(noOwner).toMatchObject({ status: 409, body: { code: 'site_has_no_owner' } });
  });
});

describe('a site name with line breaks', () => {
  it('is one line in the mail subject and in the report, never a header or a second line', async () => {
    const name = 'Okafor Residence\r\nBcc: eve@evil.example\nGate side';
    await t.server.ctx.db.updateTable('sites').set({ name }).where('id', '=', SITE).execute();
    const answer = await t.call('POST', `/config/fleet/sites/${SITE}/commissioning-report/send`, {
      token: token.installerA,
    });
    expect(answer.status).toBe(202);
    await t.server.ctx.mailer.flush();
    const mail = t.mail.sent.at(-1);
    expect(mail?.subject).toBe('Commissioning report: Okafor Residence Bcc: eve@evil.example Gate side');
    expect(mail?.text).not.toMatch(/\nBcc:/);
    const { bytes } = await report('owner');
    const lines = pdfText(bytes).split('\n');
    expect(lines.some((line) => line.includes('Okafor Residence Bcc: eve@evil.example Gate side'))).toBe(
      true,
    );
    expect(lines.some((line) => line.trim().startsWith('Bcc:'))).toBe(false);
  });
});

describe('names and values in every script', () => {
  it('prints Arabic, Hebrew, Chinese, Japanese, Korean and emoji, right-to-left words in reading order', async () => {
    await t.server.ctx.db
      .updateTable('sites')
      .set({
        name: 'مزرعة النخيل ☀️ בית שמש',
        // Long enough to take two lines: the first printed holds its beginning.
        display_address:
          'שדרות רוטשילד 5, תל אביב, קומה שלישית, דירה מספר 12, כניסה מהחצר האחורית ליד החניה של הבניין הגדול',
      })
      .where('id', '=', SITE)
      .execute();
    await t.server.ctx.db
      .updateTable('devices')
      .set({ name: '서울 발전소 🔋' })
      .where('serial', '=', 'HX5K-26-000701')
      .execute();
    const written = await t.call('POST', '/config/fleet/devices/HX5K-26-000701/config-history', {
      token: token.installerA,
      body: {
        id: crypto.randomUUID(),
        writtenAt: new Date().toISOString(),
        transport: 'web-bluetooth',
        template: '標準テンプレート',
        changes: [
          { field: 'deviceName', label: 'Device name', oldValue: '', newValue: '北京工厂 مستودع 12 😀' },
        ],
      },
    });
    expect(written.status).toBe(201);
    const { bytes } = await report('owner');
    // pdftotext marks right-to-left stretches with embedding controls; the words are what count.
    const lines = pdfText(bytes)
      .replace(/[\u202a-\u202e]/g, '')
      .split('\n');
    const text = lines.join(' ').replace(/\s+/g, ' ');
    const lineOf = (words: string) => lines.findIndex((line) => line.includes(words));
    expect(lineOf('שדרות רוטשילד')).toBeGreaterThanOrEqual(0);
    expect(lineOf('הבניין הגדול')).toBe(lineOf('שדרות רוטשילד') + 1);
    for (const expected of [
      'مزرعة النخيل',
      'בית שמש',
      '☀',
      '서울 발전소',
      '🔋',
      '標準テンプレート',
      '北京工厂',
      'مستودع',
      '😀',
    ])
      expect(text).toContain(expected);
  });
});
