import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDS, startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await startTestServer();
  admin = (await t.login('admin')).access_token;
});
afterAll(() => t.close());

/** One past the largest id an `integer` column holds, and a number far past it. */
const HUGE = [2_147_483_648, 9_007_199_254_740_991, 1e20];

const site = {
  name: 'Range Check',
  displayAddress: '1 Limit Road',
  latitude: 0,
  longitude: 0,
};

describe('ids past the database integer range answer 400 naming the field', () => {
  it.each(HUGE)('in a body: %s', async (huge) => {
    const calls: [string, string, unknown, string][] = [
      ['POST', '/config/sites', { ...site, ownerId: huge }, 'ownerId'],
      ['PUT', `/config/sites/${IDS.siteOfA}`, { ...site, ownerId: huge }, 'ownerId'],
      [
        'PUT',
        '/config/fleet/site-access/change-roles',
        { siteId: huge, userId: IDS.owner, roles: [] },
        'siteId',
      ],
      [
        'PUT',
        '/config/fleet/site-access/set-access',
        { siteId: IDS.siteOfA, userId: huge, access: true },
        'userId',
      ],
    ];
    for (const [method, path, body, field] of calls) {
      const answer = await t.call(method, path, { token: admin, body });
      expect(answer.status, `${method} ${path}`).toBe(400);
      expect(answer.body).toMatchObject({ code: 'invalid_input', field });
    }
  });

  it.each(['2147483648', '99999999999999999999', '1e20'])('in a path: %s', async (huge) => {
    const calls: [string, string, string][] = [
      ['GET', `/config/fleet/sites/${huge}`, 'id'],
      ['PUT', `/config/sites/${huge}`, 'id'],
      ['GET', `/config/users/${huge}`, 'id'],
      ['GET', `/config/fleet/sites/installs/${huge}`, 'siteId'],
      ['GET', `/config/fleet/sites/all/${huge}/0`, 'userId'],
      ['GET', `/config/fleet/device-list/${huge}/0`, 'userId'],
      ['GET', `/config/fleet/user-list/${huge}/0`, 'userId'],
      ['PUT', `/config/users/installer/add/${huge}/${IDS.installerA}`, 'a'],
      ['PUT', `/config/users/installer/add/${IDS.owner}/${huge}`, 'b'],
    ];
    for (const [method, path, field] of calls) {
      const answer = await t.call(method, path, { token: admin, body: method === 'PUT' ? site : undefined });
      expect(answer.status, `${method} ${path}`).toBe(400);
      expect(answer.body).toMatchObject({ code: 'invalid_input', field });
    }
  });

  it('in a page number and page size', async () => {
    const page = await t.call('GET', `/config/fleet/sites/all/${IDS.admin}/99999999999`, { token: admin });
    expect(page.body).toMatchObject({ field: 'page' });
    const size = await t.call('GET', `/config/fleet/sites/all/${IDS.admin}/0?pageSize=1e20`, {
      token: admin,
    });
    expect(size.body).toMatchObject({ field: 'pageSize' });
  });
});
