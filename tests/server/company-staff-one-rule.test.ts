import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { isCompanyStaffEmail } from '../../contracts/company-staff.ts';
import { isAuthenticated, isCompanyStaff } from '../../machines/auth/auth-selectors.ts';
import { pair, startAuth } from '../machines/auth-harness.ts';
import { fakeJwt } from '../machines/fakes.ts';
import { IDS, startTestServer, type TestServer } from './harness.ts';

/**
 * One rule for "company staff" (specification §2, §6): the signed-in e-mail ends with `@` and the
 * company domain, case-insensitive; a role does not count. The server's decision (may this caller
 * send a raw frame?) and the app's menu (does it show Site Manager and Remote Debugger?) are checked
 * against the same table, with COMPANY_DOMAIN `fleet.example`.
 */
const TABLE: { email: string; role?: 'admin'; staff: boolean }[] = [
  { email: 'Staff@Fleet.Example', staff: true },
  { email: 'ops@fleet.example', staff: true },
  { email: 'FIELD@FLEET.EXAMPLE', staff: true },
  { email: 'x@fleet.example.evil.com', staff: false },
  { email: 'x@sub.fleet.example', staff: false },
  { email: 'fleet.example@evil.com', staff: false },
  { email: 'x@notfleet.example', staff: false },
  { email: 'x@fleet.examples', staff: false },
  { email: 'x.fleet.example@other.example', staff: false },
  // An admin is not staff by role: only the address counts (the server used to count admins too).
  { email: 'boss@other.example', role: 'admin', staff: false },
];

let t: TestServer;
let admin: string;
let serial: string;
beforeAll(async () => {
  t = await startTestServer();
  admin = (await t.login('admin')).access_token;
  serial = (
    await t.server.ctx.db
      .selectFrom('devices')
      .select('serial')
      .where('site_id', '=', IDS.siteOfOwner)
      .orderBy('id')
      .executeTakeFirstOrThrow()
  ).serial;
});
afterAll(() => t.close());

/** A user with this address and the installer role on the device's site, signed in. */
async function signedInUser(email: string, role: 'admin' | undefined): Promise<string> {
  const password = 'Staff-rule#2026';
  const created = await t.call('POST', '/config/fleet/users/create-installer', {
    token: admin,
    body: { main_email: email, name: 'Table Row', password },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const { id } = created.body as { id: number };
  const roles = await t.call('PUT', '/config/fleet/site-access/change-roles', {
    token: admin,
    body: { siteId: IDS.siteOfOwner, userId: id, roles: ['installer'] },
  });
  expect(roles.status).toBe(200);
  if (role)
    expect((await t.call('PUT', `/config/users/${id}`, { token: admin, body: { role } })).status).toBe(200);
  const login = await t.call('POST', '/config/auth/v2/login', { body: { main_email: email, password } });
  expect(login.status).toBe(200);
  return (login.body as { access_token: string }).access_token;
}

/** The server's decision: a raw frame (an opcode outside the catalogue) passes the checks (409: offline) or not (403). */
async function serverSaysStaff(token: string): Promise<boolean> {
  const answer = await t.call('POST', '/config/service-comms/command', {
    token,
    apiKey: null,
    body: { serialNumber: serial, data: [0x7f, 1, 2, 3] },
  });
  if (answer.status === 409) return true;
  expect(answer.body).toMatchObject({ code: 'raw_frames_staff_only' });
  return false;
}

/** The menu's decision, from the auth machine signed in as `email`. */
async function menuSaysStaff(email: string): Promise<boolean> {
  const h = startAuth();
  h.actor.send({ type: 'auth.login', email, password: 'secret-pass' });
  h.configLogin.last().resolve(pair(fakeJwt({ sub: '1', email, name: 'Row', role: 'installer' }), 'r'));
  await waitFor(h.actor, () => h.monitoringLogin.pending().length > 0);
  h.monitoringLogin.last().resolve(pair('mon', 'r2'));
  return isCompanyStaff(await waitFor(h.actor, isAuthenticated), 'fleet.example');
}

describe('company staff, one rule for the server and the menu', () => {
  it.each(TABLE)('$email is staff: $staff', async ({ email, role, staff }) => {
    expect(isCompanyStaffEmail(email, 'fleet.example')).toBe(staff);
    expect(await menuSaysStaff(email)).toBe(staff);
    expect(await serverSaysStaff(await signedInUser(email, role))).toBe(staff);
  });

  it('has no domain, and so no staff, when the configured domain is empty', () => {
    expect(isCompanyStaffEmail('x@', '')).toBe(false);
    expect(isCompanyStaffEmail(null, 'fleet.example')).toBe(false);
  });
});
