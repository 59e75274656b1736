import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sitePageSchema } from '../../contracts/sites.ts';
import { IDS, startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await startTestServer();
  admin = (await t.login('admin')).access_token;
});
afterAll(() => t.close());

const NUL = '\u0000';
const site = {
  name: 'Nul Check',
  displayAddress: '2 Zero Street',
  latitude: 0,
  longitude: 0,
};

describe('NUL characters answer 400 naming the field, and nothing is stored', () => {
  it('in any text of a body', async () => {
    const calls: [string, string, unknown, string][] = [
      ['POST', '/config/sites', { ...site, name: `Nul${NUL}Site` }, 'name'],
      ['POST', '/config/sites', { ...site, placeId: NUL }, 'placeId'],
      ['PUT', `/config/sites/${IDS.siteOfA}`, { ...site, locality: `a${NUL}` }, 'locality'],
      ['PUT', `/config/users/${IDS.owner}`, { name: `Olivia${NUL}` }, 'name'],
      [
        'POST',
        '/config/fleet/users/create-owner',
        { main_email: 'nul@owner.example', name: `x${NUL}` },
        'name',
      ],
      ['POST', '/config/auth/v2/login', { main_email: 'admin@fleet.example', password: NUL }, 'password'],
      ['POST', '/config/auth/v2/refresh', { refresh_token: `abc${NUL}` }, 'refresh_token'],
      ['POST', '/config/users/password-reset', { main_email: `a${NUL}@b.example` }, 'main_email'],
      ['PUT', '/config/fleet/site-access/change-roles', { siteId: 1, userId: 3, roles: [NUL] }, 'roles.0'],
    ];
    const before = sitePageSchema.parse(
      (await t.call('GET', `/config/fleet/sites/all/${IDS.admin}/0`, { token: admin })).body,
    ).total;
    for (const [method, path, body, field] of calls) {
      const answer = await t.call(method, path, { token: admin, body });
      expect(answer.status, `${method} ${path}`).toBe(400);
      expect(answer.body).toMatchObject({ code: 'invalid_input', field });
    }
    const after = sitePageSchema.parse(
      (await t.call('GET', `/config/fleet/sites/all/${IDS.admin}/0`, { token: admin })).body,
    ).total;
    expect(after).toBe(before);
  });

  it('deep inside a body nested 30,000 levels, still naming the path', async () => {
    const depth = 30_000;
    const body = `{"name":${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}}`;
    const answer = await t.call('POST', '/config/sites', { token: admin, body });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'invalid_input', field: `name${'.0'.repeat(depth)}` });
    const plain = await t.call('POST', '/config/sites', {
      token: admin,
      body: '['.repeat(depth) + ']'.repeat(depth),
    });
    expect(plain.status).toBe(400);
  });

  it('in a search or serial query, and in a path', async () => {
    const calls: [string, string][] = [
      [`/config/fleet/sites/all/${IDS.admin}/0?q=a%00b`, 'q'],
      [`/config/fleet/user-list/${IDS.admin}/0?q=%00`, 'q'],
      [`/config/fleet/devices/all/${IDS.admin}?q=%00`, 'q'],
      ['/config/install/device/HX-5000?serial=HX5K-24-%00', 'serial'],
      ['/config/install/device/HX%005000', 'id'],
      ['/config/users/role/ad%00min', 'role'],
      ['/config/fleet/sites/1%00', 'id'],
    ];
    for (const [path, field] of calls) {
      const answer = await t.call('GET', path, { token: admin });
      expect(answer.status, path).toBe(400);
      expect(answer.body).toMatchObject({ code: 'invalid_input', field });
    }
  });

  it('in the monitoring sign-in', async () => {
    const answer = await t.call('POST', '/monitoring/auth/fleet-login', {
      body: { username: 'admin@fleet.example', password: Buffer.from(`x${NUL}`).toString('base64') },
    });
    expect(answer.status).toBe(401);
  });
});
