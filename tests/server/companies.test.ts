import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVITATION_DAYS, type MyCompany, myCompanySchema } from '../../contracts/companies.ts';
import { sitePageSchema } from '../../contracts/sites.ts';
import { openDatabase } from '../../server/db/database.ts';
import { migrate } from '../../server/db/migrations.ts';
import { pdfText } from '../pdf-text.ts';
import { freshDatabase, IDS, startTestServer, type TestServer } from './harness.ts';
import { pinForTest } from './test-clock.ts';

/** A PNG of one pixel. */
const PIXEL =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

let t: TestServer;
let sam: string; // installer A: admin of solarpros.example (seeded)
let bea: string; // installer B: admin of brightvolt.example (seeded)
beforeAll(async () => {
  t = await startTestServer();
  sam = (await t.login('installerA')).access_token;
  bea = (await t.login('installerB')).access_token;
});
afterAll(() => t.close());

/** The secret of the newest invitation link mailed to `email`. */
async function invitationTokenFor(email: string): Promise<string> {
  await t.server.ctx.mailer.flush();
  const mail = t.mail.sent.filter((m) => m.to === email).at(-1);
  const token = /\/invitation#token=([A-Za-z0-9_-]{43})/.exec(mail?.text ?? '')?.[1];
  if (!token) throw new Error(`no invitation mailed to ${email}`);
  return token;
}

async function signIn(email: string, password: string): Promise<string> {
  const answer = await t.call('POST', '/config/auth/v2/login', { body: { main_email: email, password } });
  expect(answer.status).toBe(200);
  return (answer.body as { access_token: string }).access_token;
}

async function invite(token: string, email: string, role: string) {
  return t.call('POST', '/config/companies/mine/invitations', { token, body: { email, role } });
}

/** A new person joins the caller's company by invitation; answers their access token. */
async function join(admin: string, email: string, role: string, name = 'New Member'): Promise<string> {
  expect((await invite(admin, email, role)).status).toBe(201);
  const token = await invitationTokenFor(email);
  const joined = await t.call('POST', '/config/auth/invitations/join', {
    body: { token, name, password: 'Member#2026x' },
  });
  expect(joined.status).toBe(201);
  return signIn(email, 'Member#2026x');
}

const mine = async (token: string) =>
  myCompanySchema.parse((await t.call('GET', '/config/companies/mine', { token })).body);

async function seenSites(token: string, userId: number): Promise<number[]> {
  const answer = await t.call('GET', `/config/fleet/sites/all/${userId}/0?pageSize=100`, { token });
  expect(answer.status).toBe(200);
  return sitePageSchema.parse(answer.body).items.map((site) => site.id);
}

const userIdOf = (company: MyCompany, email: string) =>
  company.members.find((member) => member.email === email)?.userId ?? 0;

describe('installer companies', () => {
  it('were made one per e-mail domain, named from it, run by their installer', async () => {
    const company = await mine(sam);
    expect(company.company.name).toBe('solarpros.example');
    expect(company.role).toBe('admin');
    expect(company.members.map((m) => [m.userId, m.role])).toEqual([[IDS.installerA, 'admin']]);
    expect((await mine(bea)).company.name).toBe('brightvolt.example');
    // Staff and site owners belong to none.
    for (const who of ['admin', 'owner'] as const) {
      const token = (await t.login(who)).access_token;
      expect((await t.call('GET', '/config/companies/mine', { token })).status).toBe(404);
    }
  });

  it('are renamed and given an address by their admins only', async () => {
    const renamed = await t.call('PUT', '/config/companies/mine', {
      token: sam,
      body: { name: 'Solar Pros Ltd', address: '12 Harbour Rd, Cape Town' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Solar Pros Ltd', address: '12 Harbour Rd, Cape Town' });
    const bad = await t.call('PUT', '/config/companies/mine', { token: sam, body: { name: '  ' } });
    expect(bad.status).toBe(400);
    const viewer = await join(sam, 'vic@solarpros.example', 'viewer', 'Vic Viewer');
    const refused = await t.call('PUT', '/config/companies/mine', {
      token: viewer,
      body: { name: 'Mine now' },
    });
    expect(refused.status).toBe(403);
    expect((await mine(viewer)).invitations).toEqual([]);
  });

  it('invite an installer by mail, who sees the sites given to them and nothing else until removed', async () => {
    const nia = await join(sam, 'nia@solarpros.example', 'installer', 'Nia Installer');
    const company = await mine(sam);
    const niaId = userIdOf(company, 'nia@solarpros.example');
    expect(company.members.find((m) => m.userId === niaId)?.role).toBe('installer');
    expect(await seenSites(nia, niaId)).toEqual([]);
    // The admin sees the new member and gives them one site of the company.
    const given = await t.call('PUT', '/config/fleet/site-access/change-roles', {
      token: sam,
      body: { siteId: IDS.siteOfA, userId: niaId, roles: ['installer'] },
    });
    expect(given.status).toBe(200);
    expect(await seenSites(nia, niaId)).toEqual([IDS.siteOfA]);
    expect((await t.call('GET', `/config/fleet/sites/${IDS.siteOfA}`, { token: nia })).status).toBe(200);
    expect((await t.call('GET', `/config/fleet/sites/${IDS.siteOfB}`, { token: nia })).status).toBe(404);
    // A site Nia makes is the company's: the admin sees it at once.
    const made = await t.call('POST', '/config/sites', {
      token: nia,
      body: { name: 'Nia site', displayAddress: '1 Nia Rd', latitude: 1, longitude: 1 },
    });
    expect(made.status).toBe(201);
    const madeId = (made.body as { id: number }).id;
    expect((await t.call('GET', `/config/fleet/sites/${madeId}`, { token: sam })).status).toBe(200);
    // Removed: with the same access token, no company site any more; the sites stay.
    const removed = await t.call('DELETE', `/config/companies/mine/members/${niaId}`, { token: sam });
    expect(removed.status).toBe(200);
    expect(await seenSites(nia, niaId)).toEqual([]);
    expect((await t.call('GET', `/config/fleet/sites/${IDS.siteOfA}`, { token: nia })).status).toBe(404);
    expect((await t.call('GET', `/config/fleet/sites/${madeId}`, { token: nia })).status).toBe(404);
    expect((await t.call('GET', `/config/fleet/sites/${madeId}`, { token: sam })).status).toBe(200);
    expect((await t.call('GET', '/config/companies/mine', { token: nia })).status).toBe(404);
  });

  it('do not give a removed member an archived site back when it is restored', async () => {
    const rex = await join(sam, 'rex@solarpros.example', 'installer', 'Rex Installer');
    const rexId = userIdOf(await mine(sam), 'rex@solarpros.example');
    const made = await t.call('POST', '/config/sites', {
      token: sam,
      body: { name: 'Archived later', displayAddress: '2 Rex Rd', latitude: 1, longitude: 1 },
    });
    const siteId = (made.body as { id: number }).id;
    await t.call('PUT', '/config/fleet/site-access/change-roles', {
      token: sam,
      body: { siteId, userId: rexId, roles: ['installer'] },
    });
    expect((await t.call('GET', `/config/fleet/sites/${siteId}`, { token: rex })).status).toBe(200);
    const staff = (await t.login('admin')).access_token;
    expect((await t.call('DELETE', `/config/sites/${siteId}`, { token: staff })).status).toBe(204);
    expect((await t.call('DELETE', `/config/companies/mine/members/${rexId}`, { token: sam })).status).toBe(
      200,
    );
    const restored = await t.call('POST', `/config/fleet/archived-sites/${siteId}/restore`, { token: staff });
    expect(restored.status).toBe(200);
    expect((await t.call('GET', `/config/fleet/sites/${siteId}`, { token: sam })).status).toBe(200);
    expect((await t.call('GET', `/config/fleet/sites/${siteId}`, { token: rex })).status).toBe(404);
  });

  it('give a member made admin every site of the company, and take them back with the role', async () => {
    const ada = await join(sam, 'ada@solarpros.example', 'admin', 'Ada Admin');
    const adaId = userIdOf(await mine(sam), 'ada@solarpros.example');
    const samSites = await seenSites(sam, IDS.installerA);
    expect((await seenSites(ada, adaId)).sort()).toEqual([...samSites].sort());
    expect(samSites.length).toBeGreaterThan(60);
    const demoted = await t.call('PUT', `/config/companies/mine/members/${adaId}`, {
      token: sam,
      body: { role: 'installer' },
    });
    expect(demoted.status).toBe(200);
    expect(await seenSites(ada, adaId)).toEqual([]);
  });

  it('keep an admin: the last one can neither leave, be removed nor step down', async () => {
    const bCompany = await mine(bea);
    expect(bCompany.members).toHaveLength(1);
    expect(
      (await t.call('DELETE', `/config/companies/mine/members/${IDS.installerB}`, { token: bea })).status,
    ).toBe(409);
    const stepDown = await t.call('PUT', `/config/companies/mine/members/${IDS.installerB}`, {
      token: bea,
      body: { role: 'viewer' },
    });
    expect(stepDown.status).toBe(409);
    expect((await mine(bea)).role).toBe('admin');
  });

  it('refuse other companies, other addresses, used links, staff and owners', async () => {
    // Another company's member cannot be removed or changed: 404 alike.
    expect(
      (await t.call('DELETE', `/config/companies/mine/members/${IDS.installerB}`, { token: sam })).status,
    ).toBe(404);
    expect(
      (
        await t.call('PUT', `/config/companies/mine/members/${IDS.installerB}`, {
          token: sam,
          body: { role: 'viewer' },
        })
      ).status,
    ).toBe(404);
    expect((await invite(sam, 'someone@fleet.example', 'installer')).status).toBe(422);
    expect((await invite(sam, 'owner@homeowner.example', 'installer')).status).toBe(422);
    // An invitation to an existing account is accepted by that account signed in, nobody else.
    expect((await invite(sam, 'installer@brightvolt.example', 'installer')).status).toBe(201);
    expect((await invite(sam, 'installer@brightvolt.example', 'installer')).status).toBe(409);
    const token = await invitationTokenFor('installer@brightvolt.example');
    const view = await t.call('POST', '/config/auth/invitations/view', { body: { token } });
    expect(view.body).toMatchObject({ company: 'Solar Pros Ltd', account: true, role: 'installer' });
    const join = await t.call('POST', '/config/auth/invitations/join', {
      body: { token, name: 'X', password: 'whatever#1' },
    });
    expect(join.status).toBe(409);
    const other = await t.call('POST', '/config/companies/invitations/accept', {
      token: sam,
      body: { token },
    });
    expect(other.status).toBe(403);
    // Bea runs Brightvolt alone: accepting would leave it without an admin.
    const last = await t.call('POST', '/config/companies/invitations/accept', {
      token: bea,
      body: { token },
    });
    expect(last.status).toBe(409);
    expect((await mine(bea)).company.name).toBe('brightvolt.example');
    // Withdrawn, the link is dead.
    const open = (await mine(sam)).invitations.find((i) => i.email === 'installer@brightvolt.example');
    expect(
      (await t.call('DELETE', `/config/companies/mine/invitations/${open?.id}`, { token: sam })).status,
    ).toBe(200);
    expect((await t.call('POST', '/config/auth/invitations/view', { body: { token } })).status).toBe(404);
    expect(
      (await t.call('POST', '/config/auth/invitations/view', { body: { token: 'x'.repeat(43) } })).status,
    ).toBe(404);
    expect((await t.call('POST', '/config/auth/invitations/view', { body: { token: 'short' } })).status).toBe(
      400,
    );
  });

  it("let an invitation's link work until exactly its days have passed on the server's clock", async () => {
    // Sent well in the past: an expiry stamped or checked by the real time would be judged wrongly.
    const sentAt = pinForTest(t.clock, Date.now() - 100 * 86_400_000);
    expect((await invite(sam, 'ida@solarpros.example', 'installer')).status).toBe(201);
    const token = await invitationTokenFor('ida@solarpros.example');
    const runsOut = new Date(sentAt + INVITATION_DAYS * 86_400_000).toISOString();
    const listed = (await mine(sam)).invitations.find((i) => i.email === 'ida@solarpros.example');
    expect(listed).toMatchObject({ createdAt: new Date(sentAt).toISOString(), expiresAt: runsOut });
    t.clock.advance(INVITATION_DAYS * 86_400_000 - 1);
    const view = await t.call('POST', '/config/auth/invitations/view', { body: { token } });
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ email: 'ida@solarpros.example', expiresAt: runsOut });
    t.clock.advance(1);
    expect((await t.call('POST', '/config/auth/invitations/view', { body: { token } })).status).toBe(404);
    const join = await t.call('POST', '/config/auth/invitations/join', {
      body: { token, name: 'Ida Late', password: 'Member#2026x' },
    });
    expect(join.status).toBe(404);
    expect(join.body).toMatchObject({ code: 'invitation_not_found' });
    // Run out unanswered, it no longer holds the address: a new one is sent and listed alone.
    expect((await invite(sam, 'ida@solarpros.example', 'installer')).status).toBe(201);
    const again = (await mine(sam)).invitations.filter((i) => i.email === 'ida@solarpros.example');
    expect(again.map((i) => i.createdAt)).toEqual([new Date(t.clock.now()).toISOString()]);
    // Still open, a second one is refused as before.
    expect((await invite(sam, 'ida@solarpros.example', 'installer')).status).toBe(409);
  });

  it('move an existing account that accepts out of its old company and its sites', async () => {
    const olu = await join(bea, 'olu@brightvolt.example', 'admin', 'Olu Brightvolt');
    const oluId = userIdOf(await mine(bea), 'olu@brightvolt.example');
    expect(await seenSites(olu, oluId)).toContain(IDS.siteOfB);
    expect((await invite(sam, 'olu@brightvolt.example', 'installer')).status).toBe(201);
    const token = await invitationTokenFor('olu@brightvolt.example');
    const accepted = await t.call('POST', '/config/companies/invitations/accept', {
      token: olu,
      body: { token },
    });
    expect(accepted.status).toBe(200);
    expect(myCompanySchema.parse(accepted.body)).toMatchObject({
      company: { name: 'Solar Pros Ltd' },
      role: 'installer',
    });
    expect(await seenSites(olu, oluId)).toEqual([]);
    expect(
      (await t.call('POST', '/config/companies/invitations/accept', { token: olu, body: { token } })).status,
    ).toBe(404);
  });
});

describe('handing a site over', () => {
  it('moves the site to the company that accepts; the old one loses it, its past stays marked', async () => {
    const owner = (await t.login('owner')).access_token;
    const site = IDS.siteOfOwner;
    const serial = 'HX5K-26-000790';
    expect(
      (
        await t.call('POST', `/config/fleet/sites/${site}/installs`, {
          token: sam,
          body: { serial, modelId: 'HX-5000', name: 'Unit' },
        })
      ).status,
    ).toBe(201);
    // Only the owner (or staff) offers it; the installer of the site does not.
    const byInstaller = await t.call('POST', `/config/sites/${site}/handover`, {
      token: sam,
      body: { email: 'installer@brightvolt.example' },
    });
    expect(byInstaller.status).toBe(403);
    const nobody = await t.call('POST', `/config/sites/${site}/handover`, {
      token: owner,
      body: { email: 'no.one@x.example' },
    });
    expect(nobody.status).toBe(422);
    const offered = await t.call('POST', `/config/sites/${site}/handover`, {
      token: owner,
      body: { email: 'installer@brightvolt.example' },
    });
    expect(offered.status).toBe(201);
    expect(offered.body).toMatchObject({
      siteId: site,
      fromCompany: 'Solar Pros Ltd',
      toCompany: 'brightvolt.example',
    });
    expect(
      (
        await t.call('POST', `/config/sites/${site}/handover`, {
          token: owner,
          body: { email: 'installer@brightvolt.example' },
        })
      ).status,
    ).toBe(409);
    const renamed = await t.call('PUT', '/config/companies/mine', {
      token: bea,
      body: { name: 'Brightvolt Energy', address: '9 Volt St, Leeds' },
    });
    expect(renamed.status).toBe(200);
    // Nothing changes hands until the company accepts; another company cannot accept it.
    expect((await t.call('GET', `/config/fleet/sites/${site}`, { token: bea })).status).toBe(404);
    const offer = (await mine(bea)).handovers.find((h) => h.siteId === site);
    expect(offer).toBeDefined();
    expect(
      (await t.call('POST', `/config/companies/mine/handovers/${offer?.id}/accept`, { token: sam })).status,
    ).toBe(404);
    const accepted = await t.call('POST', `/config/companies/mine/handovers/${offer?.id}/accept`, {
      token: bea,
    });
    expect(accepted.status).toBe(200);
    expect((await t.call('GET', `/config/fleet/sites/${site}`, { token: bea })).status).toBe(200);
    // The first company's people get 404: the site is not theirs to know of any more.
    expect((await t.call('GET', `/config/fleet/sites/${site}`, { token: sam })).status).toBe(404);
    expect((await t.call('GET', `/config/fleet/sites/${site}`, { token: owner })).status).toBe(200);
    // The past stays, marked with who held the site; the new holder starts a stay of its own.
    const stays = await t.server.ctx.db
      .selectFrom('installations')
      .innerJoin('companies', 'companies.id', 'installations.company_id')
      .select(['companies.name', 'installations.ended_at'])
      .where('serial', '=', serial)
      .orderBy('installations.id')
      .execute();
    expect(stays.map((stay) => [stay.name, stay.ended_at === null])).toEqual([
      ['Solar Pros Ltd', false],
      ['Brightvolt Energy', true],
    ]);
    // Its logo: a PNG or JPEG the report can print, nothing that only starts like one.
    const fake = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(40, 7),
    ]);
    const refused = await t.call('PUT', '/config/companies/mine/logo', {
      token: bea,
      body: { type: 'image/png', data: fake.toString('base64') },
    });
    expect(refused.status).toBe(422);
    const logo = await t.call('PUT', '/config/companies/mine/logo', {
      token: bea,
      body: { type: 'image/png', data: PIXEL },
    });
    expect(logo.body).toMatchObject({ hasLogo: true });
    // The report names the company that holds the site now.
    const report = await fetch(`${t.origin}/config/fleet/sites/${site}/commissioning-report`, {
      headers: { 'api-key': t.server.ctx.env.API_KEY, authorization: `Bearer ${bea}` },
    });
    expect(report.status).toBe(200);
    const bytes = new Uint8Array(await report.arrayBuffer());
    const text = pdfText(bytes).replace(/\s+/g, ' ');
    expect(text).toContain('Company Brightvolt Energy');
    expect(text).toContain('Company address 9 Volt St, Leeds');
    expect(text).not.toContain('Solar Pros');
    expect(Buffer.from(bytes).toString('latin1')).toMatch(/\/Subtype\s*\/Image/);
  });
});

describe('migration 19 on data written before it', () => {
  it("makes one company per e-mail domain, gives it its installers' sites, templates and past", async () => {
    const { target, drop } = await freshDatabase({ empty: true });
    const db = openDatabase(target);
    try {
      await migrate(db, { until: 18 });
      await sql`INSERT INTO users (id, main_email, display_name, role) VALUES
        (1, 'a@solarpros.example', 'A', 'installer'), (2, 'b@SolarPros.example', 'B', 'installer'),
        (3, 'sam@gmail.com', 'Sam Gmail', 'installer'), (4, 'staff@fleet.example', 'Staff', 'installer'),
        (5, 'o@home.example', 'O', 'owner')`.execute(db);
      await sql`INSERT INTO sites (id, name, display_address, latitude, longitude, installer_id, time_zone) VALUES
        (1, 'A site', 'x', 0, 0, 1, 'UTC'), (2, 'B site', 'x', 0, 0, 2, 'UTC'), (3, 'Gmail site', 'x', 0, 0, 3, 'UTC'),
        (4, 'Staff site', 'x', 0, 0, 4, 'UTC')`.execute(db);
      await sql`INSERT INTO site_access (site_id, user_id, roles) VALUES (1, 1, '{installer}'), (2, 2, '{installer}'),
        (3, 3, '{installer}'), (4, 4, '{installer}')`.execute(db);
      await sql`INSERT INTO devices (model_id, serial, name, site_id) VALUES ('HX-5000', 'HX5K-26-000700', 'Unit', 2)`.execute(
        db,
      );
      await sql`INSERT INTO config_templates (company, name, model_id, settings, created_by_email, updated_by_email)
        VALUES ('domain:solarpros.example', 'Winter', 'HX-5000', '{}', 'a@solarpros.example', 'a@solarpros.example')`.execute(
        db,
      );
      expect(await migrate(db, { companyDomain: 'fleet.example', until: 19 })).toEqual([19]);
      const companies = await sql<{
        id: number;
        name: string;
      }>`SELECT id, name FROM companies ORDER BY id`.execute(db);
      expect(companies.rows.map((row) => row.name)).toEqual(['solarpros.example', 'Sam Gmail']);
      const [solarpros, gmail] = companies.rows.map((row) => row.id);
      const members =
        await sql`SELECT user_id, company_id, role FROM company_members ORDER BY user_id`.execute(db);
      expect(members.rows).toEqual([
        { user_id: 1, company_id: solarpros, role: 'admin' },
        { user_id: 2, company_id: solarpros, role: 'installer' },
        { user_id: 3, company_id: gmail, role: 'admin' },
      ]);
      const sites = await sql`SELECT id, company_id FROM sites ORDER BY id`.execute(db);
      expect(sites.rows).toEqual([
        { id: 1, company_id: solarpros },
        { id: 2, company_id: solarpros },
        { id: 3, company_id: gmail },
        { id: 4, company_id: null },
      ]);
      // The admin sees the colleague's site; the colleague only their own.
      const access =
        await sql`SELECT site_id, user_id, by_company FROM site_access ORDER BY site_id, user_id`.execute(db);
      expect(access.rows).toEqual([
        { site_id: 1, user_id: 1, by_company: false },
        { site_id: 2, user_id: 1, by_company: true },
        { site_id: 2, user_id: 2, by_company: false },
        { site_id: 3, user_id: 3, by_company: false },
        { site_id: 4, user_id: 4, by_company: false },
      ]);
      const templates = await sql`SELECT company FROM config_templates`.execute(db);
      expect(templates.rows).toEqual([{ company: `company:${solarpros}` }]);
      const stays = await sql`SELECT company_id FROM installations`.execute(db);
      expect(stays.rows).toEqual([{ company_id: solarpros }]);
    } finally {
      await db.destroy();
      await drop();
    }
  });
});
