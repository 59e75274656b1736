import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigHistoryPage } from '../../contracts/config-history.ts';
import type { ConfigTemplate, RemoteApplyResult } from '../../contracts/config-templates.ts';
import type { InstalledDevice } from '../../contracts/installs.ts';
import { hashPassword } from '../../server/auth/passwords.ts';
import { domainKeyOf } from '../../server/companies/domain-key.ts';
import { joinCompany, membershipOf } from '../../server/companies/memberships.ts';
import type { SocketDevice } from '../../src/device-sim/online/socket-device.ts';
import { IDS, startTestServer, type TestServer } from './harness.ts';
import { connectDevice } from './service-comms-devices.ts';

/**
 * Settings templates: shared by the installers and admins of one company (the e-mail domain),
 * checked against the product's catalogue, and applied to devices online one at a time, each
 * verified by reading it back.
 */
let t: TestServer;
const token = { admin: '', installerA: '', colleague: '', installerB: '', owner: '' };
const online: SocketDevice[] = [];

beforeAll(async () => {
  t = await startTestServer();
  // A second installer of installer A's company, a member of it.
  const colleagueRow = await t.server.ctx.db
    .insertInto('users')
    .values({
      main_email: 'colleague@solarpros.example',
      display_name: 'Cole Solarpros',
      role: 'installer',
      password_hash: await hashPassword('Colleague#2026', t.server.ctx.scryptCost),
      created_by: IDS.admin,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const companyOfA = await membershipOf(t.server.ctx.db, IDS.installerA);
  await joinCompany(t.server.ctx.db, colleagueRow.id, companyOfA?.companyId ?? 0, 'installer');
  for (const who of ['admin', 'installerA', 'installerB', 'owner'] as const)
    token[who] = (await t.login(who)).access_token;
  const colleague = await t.call('POST', '/config/auth/v2/login', {
    body: { main_email: 'colleague@solarpros.example', password: 'Colleague#2026' },
  });
  token.colleague = (colleague.body as { access_token: string }).access_token;
});
afterAll(async () => {
  for (const device of online) device.stop();
  await t.close();
});

const create = (body: unknown, who: keyof typeof token = 'installerA') =>
  t.call('POST', '/config/fleet/config-templates', { token: token[who], body });

const settings = { maxChargeCurrent: 35, batteryFloatVoltage: 54.5, workMode: 2 };

describe('a company', () => {
  it('is the e-mail domain, or the one address at a public mail provider', () => {
    expect(domainKeyOf('Sam@SolarPros.example').origin).toBe('domain:solarpros.example');
    expect(domainKeyOf('sam@gmail.com').origin).toBe('person:sam@gmail.com');
  });
});

describe('saving and sharing templates', () => {
  it("is seen by the creator's colleagues and by no one else", async () => {
    const answer = await create({ name: 'Standard hybrid', modelId: 'HX-5000', settings });
    expect(answer.status).toBe(201);
    const template = answer.body as ConfigTemplate;
    expect(template).toMatchObject({
      name: 'Standard hybrid',
      settings,
      createdBy: 'installer@solarpros.example',
    });
    const read = (who: keyof typeof token) =>
      t.call('GET', `/config/fleet/config-templates/${template.id}`, { token: token[who] });
    expect((await read('colleague')).status).toBe(200);
    expect((await read('installerB')).status).toBe(404);
    expect((await read('admin')).status).toBe(404);
    expect((await read('owner')).status).toBe(403);
    const listB = await t.call('GET', '/config/fleet/config-templates', { token: token.installerB });
    expect((listB.body as { items: ConfigTemplate[] }).items).toEqual([]);
  });

  it('refuses by name a setting the product lacks and a value outside its limits', async () => {
    const answer = await create({
      name: 'Too much',
      modelId: 'HX-5000',
      settings: { maxChargeCurrent: 120, turboBoost: 1, password: '1234' },
    });
    expect(answer.status).toBe(400);
    const body = answer.body as { message: string; code: string };
    expect(body.code).toBe('template_invalid');
    expect(body.message).toContain('Max charge current must be at most 100');
    expect(body.message).toContain('turboBoost: this product has no such setting');
    expect(body.message).toContain('cannot be part of a template');
  });

  it('keeps names unique per product in a company, and renames and deletes', async () => {
    const first = (
      await create({ name: 'Battery basic', modelId: 'BX-10', settings: { maxChargeCurrent: 100 } })
    ).body as ConfigTemplate;
    const again = await create(
      { name: 'battery BASIC', modelId: 'BX-10', settings: { maxChargeCurrent: 90 } },
      'colleague',
    );
    expect(again).toMatchObject({ status: 409, body: { code: 'template_name_taken' } });
    const other = await create(
      { name: 'Battery basic', modelId: 'BX-10', settings: { maxChargeCurrent: 90 } },
      'installerB',
    );
    expect(other.status).toBe(201);
    const renamed = await t.call('PUT', `/config/fleet/config-templates/${first.id}`, {
      token: token.colleague,
      body: { name: 'Battery 100 A' },
    });
    expect(renamed.body).toMatchObject({ name: 'Battery 100 A', updatedBy: 'colleague@solarpros.example' });
    const list = await t.call('GET', '/config/fleet/config-templates?modelId=BX-10', {
      token: token.installerA,
    });
    expect((list.body as { items: ConfigTemplate[] }).items.map((x) => x.name)).toEqual(['Battery 100 A']);
    expect(
      (await t.call('DELETE', `/config/fleet/config-templates/${first.id}`, { token: token.installerB }))
        .status,
    ).toBe(404);
    expect(
      (await t.call('DELETE', `/config/fleet/config-templates/${first.id}`, { token: token.installerA }))
        .status,
    ).toBe(204);
  });
});

describe('applying a template to devices online', () => {
  let template: ConfigTemplate;
  const serials: string[] = [];

  beforeAll(async () => {
    template = (await create({ name: 'Remote standard', modelId: 'HX-5000', settings }))
      .body as ConfigTemplate;
    for (const [index, serial] of ['HX5K-26-000801', 'HX5K-26-000802', 'BX10-26-000803'].entries()) {
      const modelId = serial.startsWith('BX10') ? 'BX-10' : 'HX-5000';
      const answer = await t.call('POST', `/config/fleet/sites/${IDS.siteOfA}/installs`, {
        token: token.installerA,
        body: { serial, modelId, name: `Remote ${index}` },
      });
      const device = answer.body as InstalledDevice;
      online.push(await connectDevice(t.origin, { serialNumber: serial, modelId, secret: device.secret }));
      serials.push(serial);
    }
    // Installed, never connected.
    await t.call('POST', `/config/fleet/sites/${IDS.siteOfA}/installs`, {
      token: token.installerA,
      body: { serial: 'HX5K-26-000804', modelId: 'HX-5000' },
    });
  });

  const apply = (body: unknown, who: keyof typeof token = 'installerA') =>
    t.call('POST', `/config/fleet/config-templates/${template.id}/apply`, { token: token[who], body });

  it('writes each device, verified, and records the template in its history', async () => {
    const answer = await apply({ serials: serials.slice(0, 2), password: '0000' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const { results } = answer.body as RemoteApplyResult;
    expect(results.map((r) => r.outcome)).toEqual(['written', 'written']);
    expect(results[0]?.changes).toContainEqual({
      field: 'maxChargeCurrent',
      label: 'Max charge current',
      oldValue: expect.any(String),
      newValue: '35',
    });
    const history = await t.call('GET', `/config/fleet/devices/${serials[0]}/config-history`, {
      token: token.installerA,
    });
    expect((history.body as ConfigHistoryPage).items[0]).toMatchObject({
      transport: 'service-comms',
      template: 'Remote standard',
      userEmail: 'installer@solarpros.example',
    });
  });

  it('answers already equal for a device that holds the template', async () => {
    const { results } = (await apply({ serials: [serials[0]], password: '0000' })).body as RemoteApplyResult;
    expect(results).toEqual([{ serial: serials[0], outcome: 'already_equal', reason: null, changes: [] }]);
  });

  it('refuses another product and stops at the first failure unless asked to go on', async () => {
    const stop = (await apply({ serials: ['BX10-26-000803', serials[1]], password: '0000' }))
      .body as RemoteApplyResult;
    expect(stop.results.map((r) => r.outcome)).toEqual(['refused', 'skipped']);
    expect(stop.results[0]?.reason).toContain('is a BX-10; the template is for the HX-5000');
    const go = (
      await apply({ serials: ['HX5K-26-000804', serials[1]], password: '0000', continueOnFailure: true })
    ).body as RemoteApplyResult;
    expect(go.results.map((r) => r.outcome)).toEqual(['failed', 'already_equal']);
    expect(go.results[0]?.reason).toContain('not online');
  });

  it('fails a device whose password is wrong, writing nothing', async () => {
    await t.call('PUT', `/config/fleet/config-templates/${template.id}`, {
      token: token.installerA,
      body: { settings: { ...settings, maxChargeCurrent: 30 } },
    });
    const { results } = (await apply({ serials: [serials[1]], password: '9999' })).body as RemoteApplyResult;
    expect(results[0]).toMatchObject({
      outcome: 'failed',
      reason: 'the password was wrong; nothing was written',
    });
  });

  it('answers 404 for a device the caller cannot see, before writing any', async () => {
    const answer = await apply({ serials: [serials[1], 'HX5K-24-999999'] });
    expect(answer).toMatchObject({ status: 404, body: { field: 'serials.1' } });
  });
});
