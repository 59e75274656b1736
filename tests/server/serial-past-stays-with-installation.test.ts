import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigHistoryPage } from '../../contracts/config-history.ts';
import type { AuditList, InstalledDevice } from '../../contracts/installs.ts';
import { openDatabase } from '../../server/db/database.ts';
import { migrate } from '../../server/db/migrations.ts';
import { pdfText } from '../pdf-text.ts';
import { freshDatabase, IDS, startTestServer, type TestServer } from './harness.ts';

/**
 * A serial's past belongs to its installation (a device's stay on a site), not to the serial:
 * company A takes a unit off its site, company B installs the same serial by typing it, and B
 * reads none of A's configuration history, audit records or settings in its report; company
 * staff still read all of it. Within one company, the owner of the site a unit was moved to does
 * not read what was written at the site it came from.
 */
let t: TestServer;
const token = { admin: '', installerA: '', installerB: '', owner: '' };
const SERIAL = 'HX5K-26-000610';
const SECRET_TEXT = 'Gate code 4321, key under mat';

beforeAll(async () => {
  t = await startTestServer();
  for (const who of ['admin', 'installerA', 'installerB', 'owner'] as const)
    token[who] = (await t.login(who)).access_token;
});
afterAll(() => t.close());

const install = async (who: keyof typeof token, siteId: number, serial = SERIAL) => {
  const answer = await t.call('POST', `/config/fleet/sites/${siteId}/installs`, {
    token: token[who],
    body: { serial, modelId: 'HX-5000', name: 'Garage inverter' },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as InstalledDevice;
};

const write = async (who: keyof typeof token, serial: string, value: string) => {
  const answer = await t.call('POST', `/config/fleet/devices/${serial}/config-history`, {
    token: token[who],
    body: {
      id: crypto.randomUUID(),
      writtenAt: new Date().toISOString(),
      transport: 'web-bluetooth',
      template: 'Standard hybrid',
      changes: [{ field: 'deviceName', label: 'Device name', oldValue: '', newValue: value }],
    },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
};

const history = async (who: keyof typeof token, serial = SERIAL) => {
  const answer = await t.call('GET', `/config/fleet/devices/${serial}/config-history`, { token: token[who] });
  expect(answer.status).toBe(200);
  return (answer.body as ConfigHistoryPage).items;
};

const audit = async (who: keyof typeof token, serial = SERIAL) => {
  const answer = await t.call('GET', `/config/fleet/devices/${serial}/audit`, { token: token[who] });
  expect(answer.status).toBe(200);
  return (answer.body as AuditList).items;
};

describe('a serial re-installed by another company', () => {
  beforeAll(async () => {
    const first = await install('installerA', IDS.siteOfA);
    await write('installerA', SERIAL, SECRET_TEXT);
    const off = await t.call('DELETE', `/config/fleet/installs/${first.id}`, { token: token.installerA });
    expect(off.status).toBe(204);
    await install('installerB', IDS.siteOfB);
  });

  it("shows the new holder none of the first company's configuration history", async () => {
    expect(await history('installerB')).toEqual([]);
    await write('installerB', SERIAL, 'Side entrance');
    expect((await history('installerB')).map((e) => e.userEmail)).toEqual(['installer@brightvolt.example']);
  });

  it("shows the new holder none of the first company's records", async () => {
    const records = await audit('installerB');
    expect(records.map((r) => [r.action, r.userEmail])).toEqual([
      ['installed', 'installer@brightvolt.example'],
    ]);
  });

  it("prints none of the first company's settings in the new holder's report", async () => {
    const response = await fetch(`${t.origin}/config/fleet/sites/${IDS.siteOfB}/commissioning-report`, {
      headers: { 'api-key': t.server.ctx.env.API_KEY, authorization: `Bearer ${token.installerB}` },
    });
    expect(response.status).toBe(200);
    const text = pdfText(new Uint8Array(await response.arrayBuffer())).replace(/\s+/g, ' ');
    expect(text).toContain(SERIAL);
    expect(text).toContain('Side entrance');
    expect(text).not.toContain('Gate code');
    expect(text).not.toContain('solarpros');
  });

  it('lets company staff read the whole past of the serial', async () => {
    const values = (await history('admin')).map((e) => e.changes[0]?.newValue);
    expect(values).toEqual(['Side entrance', SECRET_TEXT]);
    expect((await audit('admin')).map((r) => r.action)).toEqual(['installed', 'removed', 'installed']);
  });
});

describe('a unit moved to another site of the same company', () => {
  it("keeps what was written at the first site from the second site's owner, not from the installer", async () => {
    const serial = 'HX5K-26-000611';
    const unit = await install('installerA', IDS.siteOfA, serial);
    await write('installerA', serial, SECRET_TEXT);
    const moved = await t.call('PUT', `/config/fleet/installs/${unit.id}`, {
      token: token.installerA,
      body: { siteId: IDS.siteOfOwner },
    });
    expect(moved.status).toBe(200);
    await write('installerA', serial, 'Front porch');
    const values = async (who: keyof typeof token) =>
      (await history(who, serial)).map((e) => e.changes[0]?.newValue);
    expect(await values('owner')).toEqual(['Front porch']);
    expect(await values('installerA')).toEqual(['Front porch', SECRET_TEXT]);
    expect((await audit('owner', serial)).map((r) => r.action)).toEqual(['moved']);
  });
});

describe('migration 15 on data written before it', () => {
  it('gives each record of a serial to the stay that held it', async () => {
    const { target, drop } = await freshDatabase({ empty: true });
    const db = openDatabase(target);
    try {
      await migrate(db, { until: 14 });
      // Two sites of two companies; the serial installed at the first, written, taken off, then
      // installed at the second and written again, as the routes before migration 15 left it.
      await sql`INSERT INTO users (id, main_email, display_name, role) VALUES
        (1, 'a@solarpros.example', 'A', 'installer'), (2, 'b@brightvolt.example', 'B', 'installer')`.execute(
        db,
      );
      await sql`INSERT INTO sites (id, name, display_address, latitude, longitude, installer_id) VALUES
        (1, 'A site', '1 A Rd', 0, 0, 1), (2, 'B site', '2 B Rd', 0, 0, 2)`.execute(db);
      const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 0, minutes)).toISOString();
      await sql`INSERT INTO install_audit (at, user_id, user_email, action, site_id, site_name, serial, model_id) VALUES
        (${at(0)}, 1, 'a@solarpros.example', 'installed', 1, 'A site', ${SERIAL}, 'HX-5000'),
        (${at(20)}, 1, 'a@solarpros.example', 'removed', 1, 'A site', ${SERIAL}, 'HX-5000'),
        (${at(30)}, 2, 'b@brightvolt.example', 'installed', 2, 'B site', ${SERIAL}, 'HX-5000')`.execute(db);
      // A seeded unit moved from the first site to the second (its stay at the first began
      // before the audit did), and a seeded unit never changed.
      await sql`INSERT INTO install_audit (at, user_id, user_email, action, site_id, site_name, from_site_id, serial, model_id)
        VALUES (${at(5)}, 1, 'a@solarpros.example', 'moved', 2, 'B site', 1, 'HX5K-26-000620', 'HX-5000')`.execute(
        db,
      );
      await sql`INSERT INTO retired_devices (device_id, serial, model_id, name, site_id, site_name, installed_at, retired_at, reason)
        VALUES (7, ${SERIAL}, 'HX-5000', 'Unit', 1, 'A site', ${at(0)}, ${at(20)}, 'removed')`.execute(db);
      await sql`INSERT INTO devices (id, model_id, serial, name, site_id, installed_at)
        VALUES (8, 'HX-5000', ${SERIAL}, 'Unit', 2, ${at(30)}), (9, 'HX-5000', 'HX5K-26-000620', 'Moved', 2, ${at(5)}),
        (10, 'HX-5000', 'HX5K-26-000630', 'Seeded', 1, ${at(1)})`.execute(db);
      await sql`INSERT INTO config_history (id, serial, user_id, user_email, transport, written_at, received_at, changes) VALUES
        (${crypto.randomUUID()}, ${SERIAL}, 1, 'a@solarpros.example', 'web-bluetooth', ${at(10)}, ${at(10)}, '[]'),
        (${crypto.randomUUID()}, ${SERIAL}, 2, 'b@brightvolt.example', 'web-bluetooth', ${at(40)}, ${at(40)}, '[]'),
        (${crypto.randomUUID()}, 'HX5K-26-000620', 1, 'before the move', 'web-bluetooth', ${at(2)}, ${at(2)}, '[]'),
        (${crypto.randomUUID()}, 'HX5K-26-000620', 1, 'after the move', 'web-bluetooth', ${at(6)}, ${at(6)}, '[]'),
        (${crypto.randomUUID()}, 'HX5K-26-000630', 1, 'seeded unit', 'web-bluetooth', ${at(3)}, ${at(3)}, '[]')`.execute(
        db,
      );
      expect(await migrate(db)).toEqual([15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 26, 27, 28]);
      const stays = await sql<{ serial: string; site_id: number; device_id: number; open: boolean }>`
        SELECT serial, site_id, device_id, ended_at IS NULL AS open FROM installations ORDER BY serial, started_at, id`.execute(
        db,
      );
      expect(stays.rows).toEqual([
        { serial: SERIAL, site_id: 1, device_id: 7, open: false },
        { serial: SERIAL, site_id: 2, device_id: 8, open: true },
        { serial: 'HX5K-26-000620', site_id: 1, device_id: 9, open: false },
        { serial: 'HX5K-26-000620', site_id: 2, device_id: 9, open: true },
        { serial: 'HX5K-26-000630', site_id: 1, device_id: 10, open: true },
      ]);
      const owners = await sql<{ who: string; site_id: number }>`
        SELECT h.user_email AS who, i.site_id FROM config_history h JOIN installations i ON i.id = h.installation_id
        UNION ALL
        SELECT a.user_email || ' ' || a.action, i.site_id FROM install_audit a JOIN installations i ON i.id = a.installation_id`.execute(
        db,
      );
      expect(Object.fromEntries(owners.rows.map((row) => [row.who, row.site_id]))).toEqual({
        'a@solarpros.example': 1,
        'a@solarpros.example installed': 1,
        'a@solarpros.example removed': 1,
        'a@solarpros.example moved': 2,
        'b@brightvolt.example': 2,
        'b@brightvolt.example installed': 2,
        'before the move': 1,
        'after the move': 2,
        'seeded unit': 1,
      });
    } finally {
      await db.destroy();
      await drop();
    }
  });
});
