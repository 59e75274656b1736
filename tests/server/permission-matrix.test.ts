import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDS, startTestServer, type TestServer, type Who } from './harness.ts';

// Every role × every call × own/other resource. "own" is a site, user or device the role may
// reach (its own account, a site it has access to); "other" belongs to another installer.
const ROLES: Who[] = ['admin', 'installerA', 'installerB', 'owner'];
const OWN_SITE: Record<Who, number> = {
  admin: IDS.siteOfA,
  installerA: IDS.siteOfA,
  installerB: IDS.siteOfB,
  owner: IDS.siteOfOwner,
};
const OTHER_SITE: Record<Who, number> = {
  admin: IDS.siteOfB,
  installerA: IDS.siteOfB,
  installerB: IDS.siteOfA,
  owner: IDS.siteOfB,
};
const OTHER_USER: Record<Who, number> = {
  admin: IDS.installerB,
  installerA: IDS.installerB,
  installerB: IDS.installerA,
  owner: IDS.installerA,
};
/** A user each role manages: the owner for the admin and installer A, themself otherwise. */
const MANAGED: Record<Who, number> = {
  admin: IDS.owner,
  installerA: IDS.owner,
  installerB: IDS.installerB,
  owner: IDS.owner,
};
const EMAILS: Record<number, string> = {
  [IDS.admin]: 'admin@fleet.example',
  [IDS.installerA]: 'installer@solarpros.example',
  [IDS.owner]: 'owner@homeowner.example',
  [IDS.installerB]: 'installer@brightvolt.example',
};
const SELF: Record<Who, number> = {
  admin: IDS.admin,
  installerA: IDS.installerA,
  installerB: IDS.installerB,
  owner: IDS.owner,
};

const site = {
  name: 'Matrix Site',
  displayAddress: '1 Congress Ave, Austin, TX 78701, USA',
  latitude: 30.26,
  longitude: -97.74,
};

interface Case {
  call: string;
  request: (who: Who, scope: 'own' | 'other', serials: Record<number, string>) => [string, string, unknown?];
  expect: (who: Who, scope: 'own' | 'other') => number;
}

const staffOr = (ok: number, refused: number) => (who: Who, scope: 'own' | 'other') =>
  scope === 'own' || who === 'admin' ? ok : refused;
const siteOf = (who: Who, scope: 'own' | 'other') => (scope === 'own' ? OWN_SITE : OTHER_SITE)[who];
const userOf = (who: Who, scope: 'own' | 'other') => (scope === 'own' ? SELF : OTHER_USER)[who];

const CASES: Case[] = [
  {
    call: 'GET /fleet/sites/{id}',
    request: (w, s) => ['GET', `/fleet/sites/${siteOf(w, s)}`],
    expect: staffOr(200, 403),
  },
  {
    call: 'PUT /sites/{id}',
    request: (w, s) => ['PUT', `/sites/${siteOf(w, s)}`, site],
    expect: staffOr(200, 403),
  },
  {
    call: 'GET /fleet/sites/installs/{siteId}',
    request: (w, s) => ['GET', `/fleet/sites/installs/${siteOf(w, s)}`],
    expect: staffOr(200, 403),
  },
  {
    call: 'GET /install/device/{id}?serial=',
    request: (w, s, serials) => {
      const serial = serials[siteOf(w, s)] ?? '';
      return [
        'GET',
        `/install/device/${serial.startsWith('HX5K') ? 'HX-5000' : serial.startsWith('BX10') ? 'BX-10' : 'E1-40'}?serial=${serial}`,
      ];
    },
    expect: staffOr(200, 404),
  },
  {
    call: 'GET /fleet/sites/all/{userId}/{page}',
    request: (w, s) => ['GET', `/fleet/sites/all/${userOf(w, s)}/0`],
    expect: staffOr(200, 403),
  },
  {
    call: 'GET /fleet/site-list/{userId}/{page}',
    request: (w, s) => ['GET', `/fleet/site-list/${userOf(w, s)}/0`],
    expect: staffOr(200, 403),
  },
  {
    call: 'GET /fleet/user-list/{userId}/{page}',
    request: (w, s) => ['GET', `/fleet/user-list/${userOf(w, s)}/0`],
    expect: staffOr(200, 403),
  },
  {
    call: 'GET /fleet/devices/all/{userId}',
    request: (w, s) => ['GET', `/fleet/devices/all/${userOf(w, s)}`],
    expect: staffOr(200, 403),
  },
  {
    call: 'GET /fleet/device-list/{userId}/{page}',
    request: (w, s) => ['GET', `/fleet/device-list/${userOf(w, s)}/0`],
    expect: staffOr(200, 403),
  },
  {
    call: 'GET /users/{id}',
    request: (w, s) => ['GET', `/users/${userOf(w, s)}`],
    expect: staffOr(200, 403),
  },
  {
    call: 'PUT /users/{id}',
    request: (w, s) => ['PUT', `/users/${userOf(w, s)}`, { phone: '+1 555 0100' }],
    expect: staffOr(200, 403),
  },
  {
    call: 'PUT /fleet/site-access/change-roles',
    request: (w, s) => [
      'PUT',
      '/fleet/site-access/change-roles',
      {
        siteId: siteOf(w, s),
        userId: SELF[w],
        roles: w === 'admin' ? ['viewer'] : ['installer', 'configurator'],
      },
    ],
    expect: (w, s) => (w === 'admin' ? 200 : w === 'owner' ? 403 : s === 'own' ? 200 : 403),
  },
  {
    call: 'PUT /fleet/site-access/set-access',
    request: (w, s) => [
      'PUT',
      '/fleet/site-access/set-access',
      { siteId: siteOf(w, s), userId: SELF[w], access: true },
    ],
    expect: (w, s) => (w === 'admin' ? 200 : w === 'owner' ? 403 : s === 'own' ? 200 : 403),
  },
  {
    call: 'PUT /users/installer/add/{a}/{b}',
    request: (w, s) => [
      'PUT',
      `/users/installer/add/${s === 'own' ? MANAGED[w] : OTHER_USER[w]}/${IDS.installerB}`,
    ],
    expect: (w, s) => (w === 'admin' ? 200 : w === 'owner' ? 403 : s === 'own' ? 200 : 403),
  },
  {
    call: 'POST /fleet/users/access-code',
    request: (w, s) => [
      'POST',
      '/fleet/users/access-code',
      { main_email: EMAILS[s === 'own' ? MANAGED[w] : OTHER_USER[w]] },
    ],
    // An account the caller cannot see answers as any address does (and gets no mail).
    expect: (w) => (w === 'owner' ? 403 : 202),
  },
  {
    call: 'POST /sites',
    request: () => ['POST', '/sites', site],
    expect: (w) => (w === 'owner' ? 403 : 201),
  },
  {
    call: 'POST /fleet/users/create-installer',
    request: (w, s) => [
      'POST',
      '/fleet/users/create-installer',
      { main_email: `${w}.${s}@matrix.example`, name: 'Matrix' },
    ],
    expect: (w) => (w === 'admin' ? 201 : 403),
  },
  {
    call: 'POST /fleet/users/create-owner',
    request: (w, s) => [
      'POST',
      '/fleet/users/create-owner',
      { main_email: `owner.${w}.${s}@matrix.example`, name: 'Matrix' },
    ],
    expect: (w) => (w === 'owner' ? 403 : 202),
  },
  {
    call: 'GET /users/role/{role}',
    request: () => ['GET', '/users/role/owner'],
    expect: (w) => (w === 'owner' ? 403 : 200),
  },
];

let t: TestServer;
const tokens = {} as Record<Who, string>;
const serials: Record<number, string> = {};
beforeAll(async () => {
  t = await startTestServer();
  for (const who of ROLES) tokens[who] = (await t.login(who)).access_token;
  const rows = await t.server.ctx.db
    .selectFrom('devices')
    .select(['site_id', 'serial'])
    .where('site_id', 'in', [IDS.siteOfA, IDS.siteOfB, IDS.siteOfOwner])
    .execute();
  for (const row of rows) serials[row.site_id] ??= row.serial;
});
afterAll(() => t.close());

describe('permission matrix', () => {
  const rows = CASES.flatMap((entry) =>
    ROLES.flatMap((who) =>
      (['own', 'other'] as const).map((scope) => ({ entry, who, scope, status: entry.expect(who, scope) })),
    ),
  );
  it.each(rows)(
    '$entry.call as $who on $scope resource answers $status',
    async ({ entry, who, scope, status }) => {
      const [method, path, body] = entry.request(who, scope, serials);
      const answer = await t.call(method, `/config${path}`, { token: tokens[who], body });
      expect({ status: answer.status, body: answer.body }).toMatchObject({ status });
    },
  );

  it.each(CASES.map((entry) => ({ call: entry.call })))(
    '$call answers 401 without a token',
    async ({ call }) => {
      const entry = CASES.find((candidate) => candidate.call === call);
      const [method, path, body] = entry?.request('admin', 'own', serials) ?? ['GET', '/'];
      const answer = await t.call(method, `/config${path}`, { body });
      expect(answer.status).toBe(401);
    },
  );
});
