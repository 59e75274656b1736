import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDS, startTestServer, type TestServer } from './harness.ts';

/**
 * Seeing everything is one rule on both services (contracts/access-policy.ts): an admin, or
 * company staff. A company user who is not an admin gets what Site Manager, their screen, needs:
 * every site, and the right to manage its access; an installer of another company does not.
 */
let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await startTestServer();
  admin = (await t.login('admin')).access_token;
});
afterAll(() => t.close());

/** A new installer with this address, signed in: their id and token. */
async function installerAt(email: string): Promise<{ id: number; token: string }> {
  const password = 'Staff-sites#2026';
  const created = await t.call('POST', '/config/fleet/users/create-installer', {
    token: admin,
    body: { main_email: email, name: 'Sites Row', password },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const login = await t.call('POST', '/config/auth/v2/login', { body: { main_email: email, password } });
  expect(login.status).toBe(200);
  return {
    id: (created.body as { id: number }).id,
    token: (login.body as { access_token: string }).access_token,
  };
}

const total = (body: unknown) => (body as { total: number }).total;

describe('company staff who are not admins', () => {
  it('list every site and manage the access of a site they hold no role on', async () => {
    const everything = await t.call('GET', `/config/fleet/sites/all/${IDS.admin}/0`, { token: admin });
    const staff = await installerAt('field-sites@fleet.example');
    const seen = await t.call('GET', `/config/fleet/sites/all/${staff.id}/0`, { token: staff.token });
    expect(seen.status).toBe(200);
    expect(total(seen.body)).toBe(total(everything.body));
    const granted = await t.call('PUT', '/config/fleet/site-access/change-roles', {
      token: staff.token,
      body: { siteId: IDS.siteOfB, userId: IDS.installerA, roles: ['viewer'] },
    });
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
  });

  it('are not what an installer of another company is', async () => {
    const other = await installerAt('field-sites@other-company.example');
    const seen = await t.call('GET', `/config/fleet/sites/all/${other.id}/0`, { token: other.token });
    expect(seen.status).toBe(200);
    expect(total(seen.body)).toBe(0);
    const refused = await t.call('PUT', '/config/fleet/site-access/change-roles', {
      token: other.token,
      body: { siteId: IDS.siteOfB, userId: IDS.installerA, roles: ['viewer'] },
    });
    // A site they hold no record of is not theirs to know of.
    expect(refused.status).toBe(404);
  });
});
