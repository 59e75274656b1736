import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_MOUNTS, SERVICE_NAMES, type ServiceName } from '../../contracts/services.ts';
import { hashPassword } from '../../server/auth/passwords.ts';
import { claimCodeHash } from '../../server/commissioning/claim-codes.ts';
import { joinCompany, membershipOf } from '../../server/companies/memberships.ts';
import { IDS, PASSWORDS, startTestServer, type TestServer } from './harness.ts';

/**
 * Who may call what: every call of both services, and the status each caller gets. The callers:
 * an admin; installer A, who holds the `installer` and `configurator` roles on THE SITE; installer
 * B, who has no access to it ("elsewhere"); the owner of THE SITE (site role `owner`); a user who
 * only holds the `viewer` role on it; and a caller with no access token. Each call is about THE
 * SITE, THE USER (the site's owner, whom installer A manages) or THE DEVICE (one at THE SITE).
 * A call the server registers without a row here fails the first test.
 */
const CALLERS = ['admin', 'installer', 'elsewhere', 'owner', 'viewer', 'signedOut'] as const;
type Caller = (typeof CALLERS)[number];

const SITE = IDS.siteOfOwner;
const USER = IDS.owner;
const VIEWER_EMAIL = 'viewer@homeowner.example';
const VIEWER_PASSWORD = 'Viewer#2026';

/** What a row's request may depend on: the caller, and what the set-up created. */
interface Setting {
  who: Caller;
  serial: string;
  viewerId: number;
  /** The caller's configuration access token (the admin's for a signed-out caller's bodies). */
  configToken: string;
  email: string;
  password: string;
}

interface Request {
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

interface Row {
  service: ServiceName;
  /** `METHOD /path/{param}` as the OpenAPI document names it. */
  call: string;
  /** The status of each caller, in the order of `CALLERS`. */
  answers: readonly [number, number, number, number, number, number];
  request: (setting: Setting) => Request | Promise<Request>;
}

const site = {
  name: 'Matrix Site',
  displayAddress: '1 Congress Ave, Austin, TX 78701, USA',
  latitude: 30.26,
  longitude: -97.74,
};
const historyRecord = () => ({
  id: randomUUID(),
  writtenAt: '2026-03-04T13:05:00.000Z',
  transport: 'web-bluetooth',
  changes: [{ field: 'workMode', label: 'Work mode', oldValue: '0', newValue: '2' }],
});
const base64 = (text: string) => Buffer.from(text).toString('base64');

/** A PNG of one pixel (a company logo). */
const PIXEL =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

let t: TestServer;

/** A fresh refresh token of a service, from a sign-in as the setting's user. */
async function refreshToken(service: ServiceName, setting: Setting): Promise<string> {
  const answer =
    service === 'config'
      ? await t.call('POST', '/config/auth/v2/login', {
          body: { main_email: setting.email, password: setting.password },
        })
      : await t.call('POST', '/monitoring/auth/v2/configurator-login', {
          body: { username: setting.email, access_token: setting.configToken },
        });
  return (answer.body as { refresh_token: string }).refresh_token;
}

const open = [200, 200, 200, 200, 200, 200] as const;
const signedIn = [200, 200, 200, 200, 200, 401] as const;
/** Lists through THE USER's eyes: whoever may see THE USER. */
const seesUser = [200, 200, 403, 200, 403, 401] as const;
/** Reading THE SITE: whoever has access to it; to one with no record of it, it does not exist. */
const seesSite = [200, 200, 404, 200, 200, 401] as const;
/** Changing who has access to THE SITE: an admin or its installer. */
const managesSite = [200, 200, 404, 403, 403, 401] as const;
/** Monitoring THE DEVICE or THE SITE: whoever sees the site; to anyone else it does not exist. */
const seesDevice = [200, 200, 404, 200, 200, 401] as const;

// biome-ignore format: the table reads best in columns
const TABLE: Row[] = [
  // answers: [admin, installer, elsewhere, owner, viewer, signedOut]
  { service: 'config', call: 'GET /openapi.json',                      answers: open, request: () => ({ path: '/openapi.json' }) },
  { service: 'config', call: 'GET /.well-known/jwks.json',             answers: open, request: () => ({ path: '/.well-known/jwks.json' }) },
  { service: 'config', call: 'GET /devices-list',                      answers: open,
    request: () => ({ path: '/devices-list', headers: { authorization: `Basic ${base64(t.server.ctx.env.LINK_KEY)}` } }) },
  { service: 'config', call: 'POST /auth/v2/login',                    answers: open,
    request: (s) => ({ path: '/auth/v2/login', body: { main_email: s.email, password: s.password } }) },
  { service: 'config', call: 'POST /auth',                             answers: open,
    request: (s) => ({ path: '/auth', body: { main_email: s.email, password: s.password } }) },
  { service: 'config', call: 'POST /auth/v2/refresh',                  answers: open,
    request: async (s) => ({ path: '/auth/v2/refresh', body: { refresh_token: await refreshToken('config', s) } }) },
  { service: 'config', call: 'POST /auth/v2/logout',                   answers: [204, 204, 204, 204, 204, 204],
    request: () => ({ path: '/auth/v2/logout', body: { refresh_token: 'not-a-token-of-anyone' } }) },
  { service: 'config', call: 'POST /users/password-reset',             answers: [202, 202, 202, 202, 202, 202],
    request: (s) => ({ path: '/users/password-reset', body: { main_email: `nobody.${s.who}@matrix.example` } }) },
  // Anyone may try an access code; a wrong one is a 400.
  { service: 'config', call: 'PUT /users/password',                    answers: [400, 400, 400, 400, 400, 400],
    request: (s) => ({ path: '/users/password',
      headers: { main_email: `nobody.${s.who}@matrix.example`, temp_code: '12345678', new_password: 'Matrix#2026-long' } }) },
  { service: 'config', call: 'POST /sites',                            answers: [201, 201, 201, 403, 403, 401],
    request: () => ({ path: '/sites', body: site }) },
  // The owner's site role lets them edit the site; a viewer's does not.
  { service: 'config', call: 'PUT /sites/{id}',                        answers: [200, 200, 404, 200, 403, 401],
    request: () => ({ path: `/sites/${SITE}`, body: { ...site, name: 'Okafor Residence' } }) },
  { service: 'config', call: 'GET /fleet/sites/all/{userId}/{page}',   answers: seesUser, request: () => ({ path: `/fleet/sites/all/${USER}/0` }) },
  { service: 'config', call: 'GET /fleet/site-list/{userId}/{page}',   answers: seesUser, request: () => ({ path: `/fleet/site-list/${USER}/0` }) },
  { service: 'config', call: 'GET /fleet/sites/{id}',                  answers: seesSite, request: () => ({ path: `/fleet/sites/${SITE}` }) },
  { service: 'config', call: 'PUT /fleet/site-access/change-roles',    answers: managesSite,
    request: (s) => ({ path: '/fleet/site-access/change-roles', body: { siteId: SITE, userId: s.viewerId, roles: ['viewer'] } }) },
  { service: 'config', call: 'PUT /fleet/site-access/set-access',      answers: managesSite,
    request: (s) => ({ path: '/fleet/site-access/set-access', body: { siteId: SITE, userId: s.viewerId, access: true } }) },
  { service: 'config', call: 'GET /fleet/devices/all/{userId}',        answers: seesUser, request: () => ({ path: `/fleet/devices/all/${USER}` }) },
  { service: 'config', call: 'GET /fleet/device-list/{userId}/{page}', answers: seesUser, request: () => ({ path: `/fleet/device-list/${USER}/0` }) },
  { service: 'config', call: 'GET /fleet/sites/installs/{siteId}',     answers: seesSite, request: () => ({ path: `/fleet/sites/installs/${SITE}` }) },
  // A device the caller cannot see is as unknown as one that does not exist.
  { service: 'config', call: 'GET /install/device/{id}',               answers: [200, 200, 404, 200, 200, 401],
    request: (s) => ({ path: `/install/device/${modelOf(s.serial)}?serial=${s.serial}` }) },
  // Everyone signed in keeps their own keys; nobody reaches another's (an unknown id is 404).
  { service: 'config', call: 'POST /fleet/api-keys',                   answers: [201, 201, 201, 201, 201, 401],
    request: () => ({ path: '/fleet/api-keys', body: { name: 'Matrix key', scope: 'read' } }) },
  { service: 'config', call: 'GET /fleet/api-keys',                    answers: signedIn, request: () => ({ path: '/fleet/api-keys' }) },
  { service: 'config', call: 'DELETE /fleet/api-keys/{id}',            answers: [404, 404, 404, 404, 404, 401],
    request: () => ({ path: `/fleet/api-keys/${randomUUID()}` }) },
  // Everyone signed in keeps their own webhooks; nobody reaches another's (an unknown id is 404).
  { service: 'config', call: 'POST /fleet/webhooks',                   answers: [201, 201, 201, 201, 201, 401],
    request: () => ({ path: '/fleet/webhooks', body: { url: 'http://127.0.0.1:9/matrix', events: ['alarm.raised'] } }) },
  { service: 'config', call: 'GET /fleet/webhooks',                    answers: signedIn, request: () => ({ path: '/fleet/webhooks' }) },
  { service: 'config', call: 'PUT /fleet/webhooks/{id}',               answers: [404, 404, 404, 404, 404, 401],
    request: () => ({ path: `/fleet/webhooks/${randomUUID()}`, body: { disabled: true } }) },
  { service: 'config', call: 'DELETE /fleet/webhooks/{id}',            answers: [404, 404, 404, 404, 404, 401],
    request: () => ({ path: `/fleet/webhooks/${randomUUID()}` }) },
  { service: 'config', call: 'POST /fleet/webhooks/{id}/test',         answers: [404, 404, 404, 404, 404, 401],
    request: () => ({ path: `/fleet/webhooks/${randomUUID()}/test` }) },
  { service: 'config', call: 'GET /fleet/webhooks/{id}/deliveries',    answers: [404, 404, 404, 404, 404, 401],
    request: () => ({ path: `/fleet/webhooks/${randomUUID()}/deliveries` }) },
  { service: 'config', call: 'POST /fleet/webhooks/deliveries/{deliveryId}/retry', answers: [404, 404, 404, 404, 404, 401],
    request: () => ({ path: '/fleet/webhooks/deliveries/2147483647/retry' }) },
  { service: 'config', call: 'POST /fleet/users/create-installer',     answers: [201, 403, 403, 403, 403, 401],
    request: (s) => ({ path: '/fleet/users/create-installer', body: { main_email: `installer.${s.who}@matrix.example`, name: 'Matrix' } }) },
  { service: 'config', call: 'POST /fleet/users/create-owner',         answers: [202, 202, 202, 403, 403, 401],
    request: (s) => ({ path: '/fleet/users/create-owner', body: { main_email: `owner.${s.who}@matrix.example`, name: 'Matrix' } }) },
  // Answered alike for an account the caller does not manage (which gets no mail).
  { service: 'config', call: 'POST /fleet/users/access-code',          answers: [202, 202, 202, 403, 403, 401],
    request: () => ({ path: '/fleet/users/access-code', body: { main_email: PASSWORDS.owner[0] } }) },
  { service: 'config', call: 'GET /fleet/user-list/{userId}/{page}',   answers: seesUser, request: () => ({ path: `/fleet/user-list/${USER}/0` }) },
  { service: 'config', call: 'GET /users/role/{role}',                 answers: [200, 200, 200, 403, 403, 401], request: () => ({ path: '/users/role/owner' }) },
  { service: 'config', call: 'PUT /users/installer/add/{a}/{b}',       answers: [200, 200, 403, 403, 403, 401],
    request: () => ({ path: `/users/installer/add/${USER}/${IDS.installerA}` }) },
  { service: 'config', call: 'GET /users/{id}',                        answers: seesUser, request: () => ({ path: `/users/${USER}` }) },
  // Installers change their owners; owners themselves.
  { service: 'config', call: 'PUT /users/{id}',                        answers: seesUser,
    request: () => ({ path: `/users/${USER}`, body: { phone: '+1 555 0100' } }) },
  // Anyone signed in changes their own password; a wrong current one is a 403 (the right one
  // would end the caller's sessions here: tests/server/own-account.test.ts changes it).
  { service: 'config', call: 'PUT /users/me/password',                 answers: [403, 403, 403, 403, 403, 401],
    request: () => ({ path: '/users/me/password', body: { current_password: 'not-the-password', new_password: 'Matrix#2026-long' } }) },
  // Anyone signed in changes their own name and phone (each caller keeps the name they have).
  { service: 'config', call: 'PUT /users/me/profile',                  answers: signedIn,
    request: (s) => ({ path: '/users/me/profile', body: { name: NAMES[s.who], phone: '+1 555 0100' } }) },
  // Only those who configure the device record its history; its owner and viewers read it.
  { service: 'config', call: 'POST /fleet/devices/{serial}/config-history', answers: [201, 201, 404, 403, 403, 401],
    request: (s) => ({ path: `/fleet/devices/${s.serial}/config-history`, body: historyRecord() }) },
  { service: 'config', call: 'GET /fleet/devices/{serial}/config-history',  answers: [200, 200, 404, 200, 200, 401],
    request: (s) => ({ path: `/fleet/devices/${s.serial}/config-history` }) },
  // Commands need company staff or the configurator or installer role; the device is offline here.
  // A catalogue command (Read configuration, a whole 255-byte frame): raw frames are for company
  // staff only (tests/server/service-comms.test.ts).
  { service: 'config', call: 'POST /service-comms/command',            answers: [409, 409, 404, 403, 403, 401],
    request: (s) => ({ path: '/service-comms/command', body: { serialNumber: s.serial, data: [1, ...Array(254).fill(0)] } }) },
  { service: 'config', call: 'GET /service-comms/devices/online',      answers: signedIn, request: () => ({ path: '/service-comms/devices/online' }) },
  { service: 'config', call: 'GET /service-comms/devices/{serial}/log', answers: [200, 200, 404, 403, 403, 401],
    request: (s) => ({ path: `/service-comms/devices/${s.serial}/log` }) },
  { service: 'config', call: 'POST /service-comms/devices/{serial}/secret', answers: [201, 403, 403, 403, 403, 401],
    request: (s) => ({ path: `/service-comms/devices/${s.serial}/secret` }) },

  // Commissioning: an admin or the installer of THE SITE; installer B cannot see it (404).
  { service: 'config', call: 'POST /fleet/sites/{siteId}/installs',   answers: [201, 201, 404, 403, 403, 401],
    request: (s) => ({ path: `/fleet/sites/${SITE}/installs`, body: { serial: serialFor(s, 1), modelId: 'HX-5000' } }) },
  { service: 'config', call: 'POST /fleet/sites/{siteId}/claims',     answers: [201, 201, 404, 403, 403, 401],
    request: async (s) => ({ path: `/fleet/sites/${SITE}/claims`, body: await claimableFor(s, 6) }) },
  { service: 'config', call: 'POST /fleet/devices/{serial}/provisioning', answers: [201, 201, 404, 403, 403, 401],
    request: (s) => ({ path: `/fleet/devices/${s.serial}/provisioning` }) },
  // Firmware: company staff upload (here a JSON body, which staff get 415 for: past the 403 that
  // everyone else gets; tests/server/firmware.test.ts uploads images). Whoever may update a device
  // of a model reads its images: installer B, too, updates that model at sites of their own.
  { service: 'config', call: 'POST /fleet/firmware',                  answers: [415, 403, 403, 403, 403, 401],
    request: () => ({ path: '/fleet/firmware?model=HX-5000&channel=stable', body: {} }) },
  { service: 'config', call: 'GET /fleet/firmware',                   answers: signedIn,
    request: () => ({ path: '/fleet/firmware' }) },
  { service: 'config', call: 'GET /fleet/firmware/keys',              answers: signedIn,
    request: () => ({ path: '/fleet/firmware/keys' }) },
  { service: 'config', call: 'GET /fleet/firmware/{id}/image',        answers: [200, 200, 200, 404, 404, 401],
    request: async (s) => ({ path: `/fleet/firmware/${await firmwareOf(s.serial)}/image` }) },
  // The admin's rollout holds THE DEVICE: installer A, allowed too, then finds it busy.
  { service: 'config', call: 'POST /fleet/firmware-rollouts',          answers: [201, 409, 404, 404, 404, 401],
    request: async (s) => ({ path: '/fleet/firmware-rollouts',
      body: { firmwareId: await firmwareOf(s.serial), serials: [s.serial], canary: 1, waveSize: 1, maxFailures: 0 } }) },
  // The list answers everyone signed in; each sees only what GET …/{id} lets them (tests/server/firmware-rollouts.test.ts).
  { service: 'config', call: 'GET /fleet/firmware-rollouts',           answers: signedIn,
    request: () => ({ path: '/fleet/firmware-rollouts' }) },
  { service: 'config', call: 'GET /fleet/firmware-rollouts/{id}',      answers: [200, 404, 404, 404, 404, 401],
    request: async (s) => ({ path: `/fleet/firmware-rollouts/${await rolloutOf(s.serial, 'running')}` }) },
  { service: 'config', call: 'POST /fleet/firmware-rollouts/{id}/pause', answers: [200, 404, 404, 404, 404, 401],
    request: async (s) => ({ path: `/fleet/firmware-rollouts/${await rolloutOf(s.serial, 'running')}/pause` }) },
  { service: 'config', call: 'POST /fleet/firmware-rollouts/{id}/resume', answers: [200, 404, 404, 404, 404, 401],
    request: async (s) => ({ path: `/fleet/firmware-rollouts/${await rolloutOf(s.serial, 'paused')}/resume` }) },
  { service: 'config', call: 'POST /fleet/firmware-rollouts/{id}/cancel', answers: [200, 404, 404, 404, 404, 401],
    request: async (s) => ({ path: `/fleet/firmware-rollouts/${await rolloutOf(s.serial, 'running')}/cancel` }) },
  { service: 'config', call: 'PUT /fleet/installs/{deviceId}',        answers: [200, 200, 404, 403, 403, 401],
    request: async (s) => ({ path: `/fleet/installs/${await deviceFor(s, 2)}`, body: { name: 'Renamed' } }) },
  { service: 'config', call: 'POST /fleet/installs/{deviceId}/replace', answers: [201, 201, 404, 403, 403, 401],
    request: async (s) => ({ path: `/fleet/installs/${await deviceFor(s, 3)}/replace`, body: { serial: serialFor(s, 4) } }) },
  { service: 'config', call: 'DELETE /fleet/installs/{deviceId}',     answers: [204, 204, 404, 403, 403, 401],
    request: async (s) => ({ path: `/fleet/installs/${await deviceFor(s, 5)}` }) },
  { service: 'config', call: 'GET /fleet/sites/{siteId}/audit',       answers: [200, 200, 404, 200, 200, 401],
    request: () => ({ path: `/fleet/sites/${SITE}/audit` }) },
  { service: 'config', call: 'GET /fleet/devices/{serial}/audit',     answers: [200, 200, 404, 200, 200, 401],
    request: (s) => ({ path: `/fleet/devices/${s.serial}/audit` }) },
  { service: 'config', call: 'DELETE /sites/{id}',                     answers: [204, 204, 404, 403, 403, 401],
    request: async (s) => ({ path: `/sites/${await emptySiteFor(s)}` }) },
  // Archived sites are for company staff (the admin's address is in the company domain).
  { service: 'config', call: 'GET /fleet/archived-sites',              answers: [200, 403, 403, 403, 403, 401],
    request: () => ({ path: '/fleet/archived-sites' }) },
  { service: 'config', call: 'POST /fleet/archived-sites/{id}/restore', answers: [200, 403, 403, 403, 403, 401],
    request: async (s) => ({ path: `/fleet/archived-sites/${await archivedSiteFor(s)}/restore` }) },
  { service: 'config', call: 'GET /fleet/sites/{siteId}/commissioning-report', answers: [200, 200, 404, 200, 200, 401],
    request: () => ({ path: `/fleet/sites/${SITE}/commissioning-report` }) },
  { service: 'config', call: 'POST /fleet/sites/{siteId}/commissioning-report/send', answers: [202, 202, 404, 403, 403, 401],
    request: () => ({ path: `/fleet/sites/${SITE}/commissioning-report/send` }) },
  // Templates: admins and installers, each seeing only their company's (installer A's here, so
  // the admin of the provider's company and installer B get 404); owners make none (403).
  { service: 'config', call: 'GET /fleet/config-templates',            answers: [200, 200, 200, 403, 403, 401],
    request: () => ({ path: '/fleet/config-templates' }) },
  { service: 'config', call: 'POST /fleet/config-templates',           answers: [201, 201, 201, 403, 403, 401],
    request: (s) => ({ path: '/fleet/config-templates', body: { name: `Matrix ${s.who}`, modelId: 'HX-5000', settings: { maxChargeCurrent: 30 } } }) },
  { service: 'config', call: 'GET /fleet/config-templates/{id}',       answers: [404, 200, 404, 403, 403, 401],
    request: async (s) => ({ path: `/fleet/config-templates/${await templateOfA(s)}` }) },
  { service: 'config', call: 'PUT /fleet/config-templates/{id}',       answers: [404, 200, 404, 403, 403, 401],
    request: async (s) => ({ path: `/fleet/config-templates/${await templateOfA(s)}`, body: { name: `Renamed ${s.who}` } }) },
  { service: 'config', call: 'DELETE /fleet/config-templates/{id}',    answers: [404, 204, 404, 403, 403, 401],
    request: async (s) => ({ path: `/fleet/config-templates/${await templateOfA(s)}` }) },
  // Installer companies: staff and owners belong to none (404); only a company's admins run it.
  { service: 'config', call: 'GET /companies/mine',                    answers: [404, 200, 200, 404, 404, 401],
    request: () => ({ path: '/companies/mine' }) },
  { service: 'config', call: 'PUT /companies/mine',                    answers: [404, 200, 200, 404, 404, 401],
    request: (s) => ({ path: '/companies/mine', body: { name: `Renamed by ${s.who}` } }) },
  { service: 'config', call: 'PUT /companies/mine/logo',               answers: [404, 200, 200, 404, 404, 401],
    request: () => ({ path: '/companies/mine/logo', body: { type: 'image/png', data: PIXEL } }) },
  { service: 'config', call: 'GET /companies/mine/logo',               answers: [404, 200, 200, 404, 404, 401],
    request: () => ({ path: '/companies/mine/logo' }) },
  { service: 'config', call: 'DELETE /companies/mine/logo',            answers: [404, 200, 200, 404, 404, 401],
    request: () => ({ path: '/companies/mine/logo' }) },
  { service: 'config', call: 'POST /companies/mine/invitations',       answers: [404, 201, 201, 404, 404, 401],
    request: (s) => ({ path: '/companies/mine/invitations', body: { email: `invitee.${s.who}@matrix.example`, role: 'installer' } }) },
  { service: 'config', call: 'DELETE /companies/mine/invitations/{id}', answers: [404, 200, 404, 404, 404, 401],
    request: async (s) => ({ path: `/companies/mine/invitations/${await invitationOfA(s)}` }) },
  { service: 'config', call: 'PUT /companies/mine/members/{id}',       answers: [404, 200, 404, 404, 404, 401],
    request: async (s) => ({ path: `/companies/mine/members/${await memberOfA(s)}`, body: { role: 'viewer' } }) },
  { service: 'config', call: 'DELETE /companies/mine/members/{id}',    answers: [404, 200, 404, 404, 404, 401],
    request: async (s) => ({ path: `/companies/mine/members/${await memberOfA(s)}` }) },
  // Handing a site over: its owner (or staff) offers it; the receiving company's admins decide.
  { service: 'config', call: 'POST /sites/{id}/handover',              answers: [201, 403, 404, 201, 403, 401],
    request: async (s) => ({ path: `/sites/${await emptySiteFor(s)}/handover`, body: { email: PASSWORDS.installerB[0] } }) },
  { service: 'config', call: 'DELETE /sites/{id}/handover',            answers: [204, 403, 404, 204, 403, 401],
    request: async (s) => ({ path: `/sites/${(await handoverToA(s)).siteId}/handover` }) },
  { service: 'config', call: 'POST /companies/mine/handovers/{id}/accept', answers: [404, 200, 404, 404, 404, 401],
    request: async (s) => ({ path: `/companies/mine/handovers/${(await handoverToA(s)).id}/accept` }) },
  { service: 'config', call: 'POST /companies/mine/handovers/{id}/decline', answers: [404, 200, 404, 404, 404, 401],
    request: async (s) => ({ path: `/companies/mine/handovers/${(await handoverToA(s)).id}/decline` }) },
  { service: 'config', call: 'POST /companies/invitations/accept',     answers: [404, 404, 404, 404, 404, 401],
    request: () => ({ path: '/companies/invitations/accept', body: { token: 'n'.repeat(43) } }) },
  { service: 'config', call: 'POST /auth/invitations/view',                 answers: [404, 404, 404, 404, 404, 404],
    request: () => ({ path: '/auth/invitations/view', body: { token: 'n'.repeat(43) } }) },
  { service: 'config', call: 'POST /auth/invitations/join',                 answers: [404, 404, 404, 404, 404, 404],
    request: () => ({ path: '/auth/invitations/join', body: { token: 'n'.repeat(43), name: 'Nobody', password: 'Nobody#2026' } }) },
  // THE DEVICE is offline: the run answers 200 with its failure.
  { service: 'config', call: 'POST /fleet/config-templates/{id}/apply', answers: [404, 200, 404, 403, 403, 401],
    request: async (s) => ({ path: `/fleet/config-templates/${await templateOfA(s)}/apply`, body: { serials: [s.serial] } }) },

  { service: 'monitoring', call: 'GET /openapi.json',                  answers: open, request: () => ({ path: '/openapi.json' }) },
  { service: 'monitoring', call: 'POST /auth/v2/configurator-login',   answers: open,
    request: (s) => ({ path: '/auth/v2/configurator-login', body: { username: s.email, access_token: s.configToken } }) },
  { service: 'monitoring', call: 'POST /auth/v2/refresh',              answers: open,
    request: async (s) => ({ path: '/auth/v2/refresh', body: { refresh_token: await refreshToken('monitoring', s) } }) },
  { service: 'monitoring', call: 'POST /auth/v2/logout',               answers: [204, 204, 204, 204, 204, 204],
    request: () => ({ path: '/auth/v2/logout', body: { refresh_token: 'not-a-token-of-anyone' } }) },
  { service: 'monitoring', call: 'POST /auth/fleet-login',             answers: open,
    request: (s) => ({ path: '/auth/fleet-login', body: { username: s.email, password: base64(s.password) } }) },
  { service: 'monitoring', call: 'GET /me',                            answers: signedIn, request: () => ({ path: '/me' }) },
  // Monitoring reads what the caller sees: another installer's devices and sites are 404.
  { service: 'monitoring', call: 'GET /overview',                      answers: signedIn, request: () => ({ path: '/overview' }) },
  { service: 'monitoring', call: 'GET /counts',                        answers: seesDevice, request: () => ({ path: `/counts?siteId=${SITE}` }) },
  { service: 'monitoring', call: 'GET /fleet/live',                    answers: signedIn, request: () => ({ path: '/fleet/live' }) },
  { service: 'monitoring', call: 'GET /devices',                       answers: signedIn, request: () => ({ path: '/devices?state=offline' }) },
  { service: 'monitoring', call: 'GET /devices/{serial}/latest',       answers: seesDevice, request: (s) => ({ path: `/devices/${s.serial}/latest` }) },
  { service: 'monitoring', call: 'GET /devices/{serial}/series',       answers: seesDevice,
    request: (s) => ({ path: `/devices/${s.serial}/series?metric=${metricOf(s.serial)}&${LAST_DAY}` }) },
  { service: 'monitoring', call: 'GET /devices/{serial}/live',         answers: seesDevice, request: (s) => ({ path: `/devices/${s.serial}/live` }) },
  { service: 'monitoring', call: 'GET /sites/{siteId}/series',         answers: seesDevice,
    request: () => ({ path: `/sites/${SITE}/series?metric=production&${LAST_DAY}` }) },
  { service: 'monitoring', call: 'GET /sites/{siteId}/now',            answers: seesDevice, request: () => ({ path: `/sites/${SITE}/now` }) },
  { service: 'monitoring', call: 'GET /alarms',                        answers: signedIn, request: () => ({ path: `/alarms?siteId=${SITE}` }) },
  // Everyone with access acknowledges but a viewer; each caller gets an alarm of its own to acknowledge.
  { service: 'monitoring', call: 'POST /alarms/{id}/acknowledge',      answers: [200, 200, 404, 200, 403, 401],
    request: async (s) => ({ path: `/alarms/${await activeAlarm(s.serial)}/acknowledge`, body: { note: 'On it' } }) },
  { service: 'monitoring', call: 'GET /telemetry/counts',              answers: [200, 403, 403, 403, 403, 401], request: () => ({ path: '/telemetry/counts' }) },
];

/** The last day, as a series query. */
const LAST_DAY = `from=${new Date(Date.now() - 86_400_000).toISOString()}&to=${new Date().toISOString()}`;

/** A telemetry metric of a seeded serial number's model. */
function metricOf(serial: string): string {
  return serial.startsWith('HX5K') ? 'pvPower' : serial.startsWith('BX10') ? 'soc' : 'chargePower';
}

/** A new active alarm on the device, raised as a fault code would raise it. */
async function activeAlarm(serial: string): Promise<number> {
  const { db } = t.server.ctx;
  const device = await db
    .selectFrom('devices')
    .select('id')
    .where('serial', '=', serial)
    .executeTakeFirstOrThrow();
  const alarm = await db
    .insertInto('alarms')
    .values({
      device_id: device.id,
      rule: `status:faultCode=${randomUUID()}`,
      kind: 'status',
      severity: 'warning',
      message: 'Grid over-voltage',
      value: 1,
      state: 'active',
      raised_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('alarm_transitions')
    .values({ alarm_id: alarm.id, state: 'active', at: new Date() })
    .execute();
  return alarm.id;
}

/** A serial of its own for each caller and use (`HX5K-27-00` + caller + use + `00`). */
/** The id of the demo's firmware image for the model of the device `serial`. */
async function firmwareOf(serial: string): Promise<number> {
  const row = await t.server.ctx.db
    .selectFrom('firmware_images')
    .innerJoin('devices', 'devices.model_id', 'firmware_images.model_id')
    .select('firmware_images.id')
    .where('devices.serial', '=', serial)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A rollout of no device that the admin started, in `state`, of the image for `serial`'s model. */
async function rolloutOf(serial: string, state: 'running' | 'paused'): Promise<number> {
  const row = await t.server.ctx.db
    .insertInto('firmware_rollouts')
    .values({
      firmware_id: await firmwareOf(serial),
      state,
      canary: 1,
      wave_size: 1,
      max_failures: 0,
      created_by: IDS.admin,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

function serialFor(setting: Setting, use: number): string {
  return `HX5K-27-00${CALLERS.indexOf(setting.who)}${use}00`;
}

/** A serial of a manufacturing list for one caller's claim, with its code. */
async function claimableFor(setting: Setting, use: number): Promise<{ serial: string; claimCode: string }> {
  const claim = { serial: serialFor(setting, use), claimCode: 'MATR-1X00-0000-0000' };
  await t.server.ctx.db
    .insertInto('device_registrations')
    .values({ serial: claim.serial, model_id: 'HX-5000', claim_code_hash: claimCodeHash(claim.claimCode) })
    .execute();
  return claim;
}

/** A device of THE SITE for one caller's request to change. */
async function deviceFor(setting: Setting, use: number): Promise<number> {
  const row = await t.server.ctx.db
    .insertInto('devices')
    .values({ model_id: 'HX-5000', serial: serialFor(setting, use), name: 'Matrix device', site_id: SITE })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A site without devices, with THE SITE's access (installer A, the owner, the viewer). */
async function emptySiteFor(setting: Setting): Promise<number> {
  const { db } = t.server.ctx;
  const row = await db
    .insertInto('sites')
    .values({
      name: `Empty ${setting.who}`,
      display_address: '1 Empty Rd',
      street_number: '1',
      street_name: 'Empty Rd',
      postal_code: '',
      locality: '',
      state: '',
      country: '',
      place_id: null,
      latitude: 0,
      longitude: 0,
      time_zone: 'UTC',
      owner_id: USER,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('site_access')
    .values([
      { site_id: row.id, user_id: IDS.installerA, roles: ['installer', 'configurator'], access: true },
      { site_id: row.id, user_id: USER, roles: ['owner'], access: true },
      { site_id: row.id, user_id: setting.viewerId, roles: ['viewer'], access: true },
    ])
    .execute();
  return row.id;
}

/** An archived site (archived by the admin) for the admin to restore; any id for the others. */
async function archivedSiteFor(setting: Setting): Promise<number> {
  if (setting.who !== 'admin') return 999_999;
  const id = await emptySiteFor(setting);
  const archived = await t.call('DELETE', `/config/sites/${id}`, { token: tokens.config.admin });
  expect(archived.status).toBe(204);
  return id;
}

/** A template of installer A's company, one per request. */
async function templateOfA(setting: Setting): Promise<number> {
  const row = await t.server.ctx.db
    .insertInto('config_templates')
    .values({
      company: `company:${(await membershipOf(t.server.ctx.db, IDS.installerA))?.companyId}`,
      name: `Of A for ${setting.who} ${randomUUID()}`,
      model_id: 'HX-5000',
      settings: JSON.stringify({ maxChargeCurrent: 30 }),
      created_by_email: 'installer@solarpros.example',
      updated_by_email: 'installer@solarpros.example',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A site of THE SITE's access offered to installer A's company, one per request. */
async function handoverToA(setting: Setting): Promise<{ id: number; siteId: number }> {
  const siteId = await emptySiteFor(setting);
  const companyId = (await membershipOf(t.server.ctx.db, IDS.installerA))?.companyId ?? 0;
  const row = await t.server.ctx.db
    .insertInto('site_handovers')
    .values({ site_id: siteId, to_company_id: companyId, requested_by: USER })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, siteId };
}

/** An open invitation of installer A's company, one per request. */
async function invitationOfA(setting: Setting): Promise<number> {
  const companyId = (await membershipOf(t.server.ctx.db, IDS.installerA))?.companyId ?? 0;
  const row = await t.server.ctx.db
    .insertInto('company_invitations')
    .values({
      company_id: companyId,
      email: `open.${setting.who}.${randomUUID()}@matrix.example`,
      role: 'viewer',
      token_hash: randomUUID(),
      expires_at: new Date(Date.now() + 86_400_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A new installer in installer A's company, one per request. */
async function memberOfA(setting: Setting): Promise<number> {
  const { db } = t.server.ctx;
  const companyId = (await membershipOf(db, IDS.installerA))?.companyId ?? 0;
  const user = await db
    .insertInto('users')
    .values({
      main_email: `member.${setting.who}.${randomUUID()}@matrix.example`,
      display_name: 'Member',
      role: 'installer',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await joinCompany(db, user.id, companyId, 'installer');
  return user.id;
}

/** The catalogue model of a seeded serial number. */
function modelOf(serial: string): string {
  return serial.startsWith('HX5K') ? 'HX-5000' : serial.startsWith('BX10') ? 'BX-10' : 'E1-40';
}

const CREDENTIALS: Record<Caller, readonly [string, string]> = {
  admin: PASSWORDS.admin,
  installer: PASSWORDS.installerA,
  elsewhere: PASSWORDS.installerB,
  owner: PASSWORDS.owner,
  viewer: [VIEWER_EMAIL, VIEWER_PASSWORD],
  signedOut: PASSWORDS.admin,
};
/** Each caller's display name, which their own profile change keeps. */
const NAMES: Record<Caller, string> = {
  admin: 'Fleet Admin',
  installer: 'Sam Solarpros',
  elsewhere: 'Bea Brightvolt',
  owner: 'Olivia Homeowner',
  viewer: 'Vera Viewer',
  signedOut: 'Nobody',
};
const tokens = {} as Record<ServiceName, Record<Caller, string>>;
let serial = '';
let viewerId = 0;

beforeAll(async () => {
  t = await startTestServer();
  const { db } = t.server.ctx;
  const viewer = await db
    .insertInto('users')
    .values({
      main_email: VIEWER_EMAIL,
      display_name: 'Vera Viewer',
      role: 'owner',
      password_hash: await hashPassword(VIEWER_PASSWORD, t.server.ctx.scryptCost),
      created_by: IDS.installerA,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  viewerId = viewer.id;
  await db
    .insertInto('user_installers')
    .values({ user_id: viewerId, installer_id: IDS.installerA })
    .execute();
  await db
    .insertInto('site_access')
    .values({ site_id: SITE, user_id: viewerId, roles: ['viewer'], access: true })
    .execute();
  const device = await db
    .selectFrom('devices')
    .select('serial')
    .where('site_id', '=', SITE)
    .executeTakeFirstOrThrow();
  serial = device.serial;
  tokens.config = {} as Record<Caller, string>;
  tokens.monitoring = {} as Record<Caller, string>;
  for (const [index, who] of CALLERS.entries()) {
    const [main_email, password] = CREDENTIALS[who];
    const login = await t.call('POST', '/config/auth/v2/login', {
      body: { main_email, password },
      ip: `198.51.100.${index + 10}`,
    });
    tokens.config[who] = (login.body as { access_token: string }).access_token;
    const monitoring = await t.call('POST', '/monitoring/auth/v2/configurator-login', {
      body: { username: main_email, access_token: tokens.config[who] },
    });
    tokens.monitoring[who] = (monitoring.body as { access_token: string }).access_token;
  }
});
afterAll(() => t.close());

/** `service METHOD /path/{param}` of every route the server registered. */
function registeredCalls(): string[] {
  const calls = SERVICE_NAMES.flatMap((service) => {
    const mount = SERVICE_MOUNTS[service];
    return t.server.app.routes
      .filter((route) => route.method !== 'ALL' && route.path.startsWith(`${mount}/`))
      .map(
        (route) => `${service} ${route.method} ${route.path.slice(mount.length).replace(/:(\w+)/g, '{$1}')}`,
      );
  });
  return [...new Set(calls)].sort();
}

describe('who may call what', () => {
  it('has a row for every call the server registers, and no row for a call it does not', () => {
    expect(TABLE.map((row) => `${row.service} ${row.call}`).sort()).toEqual(registeredCalls());
  });

  const cells = TABLE.flatMap((row) =>
    CALLERS.map((who, index) => ({
      row,
      who,
      status: row.answers[index] ?? 0,
      name: `${row.service} ${row.call}`,
    })),
  );
  it.each(cells)('$name as $who answers $status', async ({ row, who, status }) => {
    const [email, password] = CREDENTIALS[who];
    const setting: Setting = { who, serial, viewerId, configToken: tokens.config[who], email, password };
    const request = await row.request(setting);
    const method = row.call.split(' ')[0] ?? 'GET';
    const answer = await t.call(method, `${SERVICE_MOUNTS[row.service]}${request.path}`, {
      body: request.body,
      ...(request.headers && { headers: request.headers }),
      ...(who !== 'signedOut' && !request.headers?.authorization && { token: tokens[row.service][who] }),
      ip: `203.0.113.${CALLERS.indexOf(who) + 20}`,
    });
    expect({ status: answer.status, body: answer.body }).toMatchObject({ status });
  });
});
