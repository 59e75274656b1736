import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigHistoryPage } from '../../contracts/config-history.ts';
import type { Device } from '../../contracts/devices.ts';
import type { ArchivedSite, AuditList, InstalledDevice } from '../../contracts/installs.ts';
import type { SiteDetails } from '../../contracts/sites.ts';
import { IDS, startTestServer, type TestServer } from './harness.ts';
import { connectDevice } from './service-comms-devices.ts';

/**
 * Putting devices on sites: install, move, rename, replace, take off, archive a site, and the
 * record of each change, as installer A (sites 1–70, the owner's 1–3), installer B (71–124) and
 * the admin (company staff) see them.
 */
let t: TestServer;
const token = { admin: '', installerA: '', installerB: '', owner: '' };
const SITE_A = IDS.siteOfA;
const SITE_A2 = IDS.siteOfA + 1;
const SITE_B = IDS.siteOfB;

beforeAll(async () => {
  t = await startTestServer();
  for (const who of ['admin', 'installerA', 'installerB', 'owner'] as const)
    token[who] = (await t.login(who)).access_token;
});
afterAll(() => t.close());

const install = (siteId: number, body: unknown, who: keyof typeof token = 'installerA') =>
  t.call('POST', `/config/fleet/sites/${siteId}/installs`, { token: token[who], body });

async function installed(
  siteId: number,
  serial: string,
  who: keyof typeof token = 'installerA',
): Promise<InstalledDevice> {
  const answer = await install(
    siteId,
    { serial, modelId: 'HX-5000', name: `Unit ${serial.trim().slice(-3)}` },
    who,
  );
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as InstalledDevice;
}

const audit = async (path: string, who: keyof typeof token = 'installerA') => {
  const answer = await t.call('GET', `/config/fleet/${path}/audit`, { token: token[who] });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return (answer.body as AuditList).items;
};

describe('putting a device on a site', () => {
  it('answers the device with a secret that lets it come online once', async () => {
    const device = await installed(SITE_A, 'hx5k-26-000901 ');
    expect(device).toMatchObject({
      serial: 'HX5K-26-000901',
      modelId: 'HX-5000',
      siteId: SITE_A,
      name: 'Unit 901',
    });
    expect(device.secret.length).toBeGreaterThan(30);
    const online = await connectDevice(t.origin, {
      serialNumber: device.serial,
      modelId: 'HX-5000',
      secret: device.secret,
    });
    online.stop();
    const listed = await t.call('GET', `/config/fleet/sites/installs/${SITE_A}`, { token: token.installerA });
    expect((listed.body as { items: Device[] }).items.map((d) => d.serial)).toContain('HX5K-26-000901');
    const [record] = await audit(`sites/${SITE_A}`);
    expect(record).toMatchObject({
      action: 'installed',
      serial: 'HX5K-26-000901',
      userEmail: 'installer@solarpros.example',
      siteName: expect.any(String),
    });
  });

  it('takes the model name when no name is given', async () => {
    const answer = await install(SITE_A, { serial: 'BX10-26-000902', modelId: 'BX-10' });
    expect(answer.body).toMatchObject({ name: 'Basalt BX-10 Home Battery' });
  });

  it("refuses a serial of another model's prefix, naming the serial", async () => {
    const answer = await install(SITE_A, { serial: 'BX10-26-000903', modelId: 'HX-5000' });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      field: 'serial',
      message: expect.stringContaining('start with HX5K-'),
    });
  });

  it('refuses a model that is not in the catalogue and a serial of the wrong form', async () => {
    expect((await install(SITE_A, { serial: 'HX5K-26-000904', modelId: 'HX-9000' })).body).toMatchObject({
      field: 'modelId',
    });
    expect((await install(SITE_A, { serial: 'HX5K-2026-04', modelId: 'HX-5000' })).body).toMatchObject({
      field: 'serial',
    });
  });

  it('names the other site only to a caller who sees it (device_installed_elsewhere)', async () => {
    await installed(SITE_B, 'HX5K-26-000905', 'installerB');
    const asA = await install(SITE_A, { serial: 'HX5K-26-000905', modelId: 'HX-5000' });
    expect(asA.status).toBe(409);
    expect(asA.body).toMatchObject({
      code: 'device_installed_elsewhere',
      message: expect.stringContaining('a site you cannot see'),
    });
    const asAdmin = await install(SITE_A, { serial: 'HX5K-26-000905', modelId: 'HX-5000' }, 'admin');
    expect(asAdmin.body).toMatchObject({
      code: 'device_installed_elsewhere',
      message: expect.stringContaining(`site ${SITE_B}`),
    });
  });

  it("answers 404 for another installer's site and 403 for the site's owner", async () => {
    expect((await install(SITE_B, { serial: 'HX5K-26-000906', modelId: 'HX-5000' })).status).toBe(404);
    const owner = await install(IDS.siteOfOwner, { serial: 'HX5K-26-000906', modelId: 'HX-5000' }, 'owner');
    expect(owner).toMatchObject({ status: 403, body: { code: 'site_role_forbidden' } });
  });
});

describe('moving and renaming', () => {
  it("moves a device between two of the installer's sites, recorded on both, keeping its install date", async () => {
    const device = await installed(SITE_A, 'HX5K-26-000910');
    const installedAt = (
      await t.server.ctx.db
        .selectFrom('devices')
        .select('installed_at')
        .where('id', '=', device.id)
        .executeTakeFirstOrThrow()
    ).installed_at;
    const moved = await t.call('PUT', `/config/fleet/installs/${device.id}`, {
      token: token.installerA,
      body: { siteId: SITE_A2, name: 'Moved unit' },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ siteId: SITE_A2, name: 'Moved unit' });
    const after = await t.server.ctx.db
      .selectFrom('devices')
      .select('installed_at')
      .where('id', '=', device.id)
      .executeTakeFirstOrThrow();
    expect(new Date(after.installed_at).toISOString()).toBe(new Date(installedAt).toISOString());
    const onNew = await audit(`sites/${SITE_A2}`);
    expect(onNew.slice(0, 2).map((r) => r.action)).toEqual(['renamed', 'moved']);
    expect(onNew[1]).toMatchObject({ fromSiteId: SITE_A, siteId: SITE_A2 });
    expect((await audit(`sites/${SITE_A}`))[0]).toMatchObject({ action: 'moved', fromSiteId: SITE_A });
    expect((await audit('devices/HX5K-26-000910')).map((r) => r.action)).toEqual([
      'renamed',
      'moved',
      'installed',
    ]);
  });

  it('changes and records nothing when the device is already there with that name', async () => {
    const device = await installed(SITE_A, 'HX5K-26-000913');
    const answer = await t.call('PUT', `/config/fleet/installs/${device.id}`, {
      token: token.installerA,
      body: { siteId: SITE_A, name: device.name },
    });
    expect(answer).toMatchObject({ status: 200, body: { id: device.id, siteId: SITE_A, name: device.name } });
    expect((await audit('devices/HX5K-26-000913')).map((r) => r.action)).toEqual(['installed']);
  });

  it('answers 404 for a move to a site the installer cannot see, and moves nothing', async () => {
    const device = await installed(SITE_A, 'HX5K-26-000911');
    const answer = await t.call('PUT', `/config/fleet/installs/${device.id}`, {
      token: token.installerA,
      body: { siteId: SITE_B },
    });
    expect(answer.status).toBe(404);
    const still = await t.call('GET', `/config/install/device/HX-5000?serial=HX5K-26-000911`, {
      token: token.installerA,
    });
    expect((still.body as { items: Device[] }).items[0]?.siteId).toBe(SITE_A);
  });

  it("hides a move's old site from a reader who cannot see it", async () => {
    const device = await installed(SITE_B, 'HX5K-26-000912', 'installerB');
    // The admin moves B's device to A's site: A sees the record without B's site name.
    await t.call('PUT', `/config/fleet/installs/${device.id}`, {
      token: token.admin,
      body: { siteId: SITE_A },
    });
    const [record] = await audit('devices/HX5K-26-000912');
    expect(record).toMatchObject({
      action: 'moved',
      fromSiteId: SITE_B,
      fromSiteName: null,
      userEmail: 'Company staff',
    });
  });
});

describe('replacing and taking off', () => {
  it("puts a new unit in the old one's place; the old history stays for staff", async () => {
    const old = await installed(SITE_A, 'HX5K-26-000920');
    const record = {
      id: crypto.randomUUID(),
      writtenAt: new Date().toISOString(),
      transport: 'web-bluetooth',
      changes: [{ field: 'maxChargeCurrent', label: 'Max charge current', oldValue: '40', newValue: '35' }],
    };
    expect(
      (
        await t.call('POST', '/config/fleet/devices/HX5K-26-000920/config-history', {
          token: token.installerA,
          body: record,
        })
      ).status,
    ).toBe(201);
    const answer = await t.call('POST', `/config/fleet/installs/${old.id}/replace`, {
      token: token.installerA,
      body: { serial: 'HX5K-26-000921' },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      serial: 'HX5K-26-000921',
      name: old.name,
      siteId: SITE_A,
      secret: expect.any(String),
    });
    expect(
      await t.call('DELETE', `/config/fleet/installs/${old.id}`, { token: token.installerA }),
    ).toMatchObject({ status: 409, body: { code: 'device_changed' } });
    expect(
      (await t.call('DELETE', `/config/fleet/installs/${old.id}`, { token: token.installerB })).status,
    ).toBe(404);
    const history = (path: string, who: keyof typeof token) =>
      t.call('GET', `/config/fleet/devices/${path}/config-history`, { token: token[who] });
    expect((await history('HX5K-26-000920', 'installerA')).status).toBe(404);
    const staff = await history('HX5K-26-000920', 'admin');
    expect((staff.body as ConfigHistoryPage).items.map((e) => e.id)).toEqual([record.id]);
    const [replaced] = await audit('devices/HX5K-26-000921');
    expect(replaced).toMatchObject({
      action: 'replaced',
      serial: 'HX5K-26-000921',
      otherSerial: 'HX5K-26-000920',
    });
  });

  it('refuses a replacement of another model', async () => {
    const old = await installed(SITE_A, 'HX5K-26-000922');
    const answer = await t.call('POST', `/config/fleet/installs/${old.id}/replace`, {
      token: token.installerA,
      body: { serial: 'BX10-26-000922' },
    });
    expect(answer).toMatchObject({ status: 400, body: { field: 'serial' } });
  });

  it('takes a device off its site and frees its serial', async () => {
    const device = await installed(SITE_A, 'HX5K-26-000923');
    expect(
      (await t.call('DELETE', `/config/fleet/installs/${device.id}`, { token: token.installerA })).status,
    ).toBe(204);
    const gone = await t.call('GET', '/config/install/device/HX-5000?serial=HX5K-26-000923', {
      token: token.installerA,
    });
    expect(gone.status).toBe(404);
    expect((await audit(`sites/${SITE_A}`))[0]).toMatchObject({
      action: 'removed',
      serial: 'HX5K-26-000923',
    });
    await installed(SITE_A2, 'HX5K-26-000923');
  });
});

describe('archiving a site', () => {
  it('answers 409 saying how many devices a site still has', async () => {
    const details = await t.call('GET', `/config/fleet/sites/${SITE_A2}`, { token: token.installerA });
    const count = (details.body as SiteDetails).deviceCount;
    const answer = await t.call('DELETE', `/config/sites/${SITE_A2}`, { token: token.installerA });
    expect(answer).toMatchObject({
      status: 409,
      body: { code: 'site_has_devices', message: expect.stringContaining(`still has ${count} device`) },
    });
  });

  it('takes an empty site out of every list and count; staff restore it with its access', async () => {
    const created = await t.call('POST', '/config/sites', {
      token: token.installerA,
      body: {
        name: 'Empty Lot',
        displayAddress: '2 Empty Rd',
        latitude: 1,
        longitude: 2,
        ownerId: IDS.owner,
      },
    });
    const siteId = (created.body as { id: number }).id;
    const total = async (who: 'installerA' | 'owner' | 'admin') => {
      const userId = who === 'admin' ? IDS.admin : who === 'owner' ? IDS.owner : IDS.installerA;
      const page = await t.call('GET', `/config/fleet/sites/all/${userId}/0`, { token: token[who] });
      return (page.body as { total: number }).total;
    };
    const before = {
      installerA: await total('installerA'),
      owner: await total('owner'),
      admin: await total('admin'),
    };
    expect((await t.call('DELETE', `/config/sites/${siteId}`, { token: token.installerA })).status).toBe(204);
    expect({
      installerA: await total('installerA'),
      owner: await total('owner'),
      admin: await total('admin'),
    }).toEqual({
      installerA: before.installerA - 1,
      owner: before.owner - 1,
      admin: before.admin - 1,
    });
    expect((await t.call('GET', `/config/fleet/sites/${siteId}`, { token: token.installerA })).status).toBe(
      404,
    );
    expect((await t.call('GET', '/config/fleet/archived-sites', { token: token.installerA })).status).toBe(
      403,
    );
    const archived = await t.call('GET', '/config/fleet/archived-sites', { token: token.admin });
    expect((archived.body as { items: ArchivedSite[] }).items[0]).toMatchObject({
      id: siteId,
      name: 'Empty Lot',
      archivedBy: 'installer@solarpros.example',
    });
    const restored = await t.call('POST', `/config/fleet/archived-sites/${siteId}/restore`, {
      token: token.admin,
    });
    expect(restored).toMatchObject({
      status: 200,
      body: { id: siteId, name: 'Empty Lot', ownerId: IDS.owner },
    });
    expect(await total('owner')).toBe(before.owner);
    const back = await t.call('GET', `/config/fleet/sites/${siteId}`, { token: token.installerA });
    expect((back.body as SiteDetails).access.map((a) => a.userId).sort()).toEqual([
      IDS.installerA,
      IDS.owner,
    ]);
    expect((await audit(`sites/${siteId}`)).map((r) => r.action)).toEqual(['site_restored', 'site_archived']);
  });
});
