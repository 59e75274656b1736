import { describe, expect, it } from 'vitest';
import {
  type Actor,
  actorOf,
  isStaff,
  mayAcknowledgeOnSite,
  mayBeLinkedToInstaller,
  mayChangeEmail,
  mayChangeRoles,
  mayChangeSignIn,
  mayChangeState,
  mayConfigureOnSite,
  mayCreateInstallers,
  mayCreateKeys,
  mayCreateSites,
  mayEditSite,
  mayEditUser,
  mayHandOverSite,
  mayInstallOnSite,
  mayJoinCompany,
  mayManageKeys,
  mayManageSiteAccess,
  mayOpenFirmware,
  mayOpenRemoteDebugger,
  mayOpenSiteManager,
  mayReceiveSiteEvents,
  mayRunCompany,
  maySeeSite,
  maySendRawFrames,
  mayTakeOverSites,
  mayUpdateFirmware,
  mayUploadFirmware,
  type SiteGrant,
  seesEveryCompanySite,
  seesEverything,
  wouldLockThemselvesOut,
} from '../../contracts/access-policy.ts';

const DOMAIN = 'fleet.example';

/** The people the table asks about: each user role, and a company address on a role that is not admin. */
const ACTORS = {
  admin: actorOf({ id: 1, role: 'admin', email: 'boss@other.example' }, DOMAIN),
  staff: actorOf({ id: 2, role: 'installer', email: 'Tech@Fleet.Example' }, DOMAIN),
  installer: actorOf({ id: 3, role: 'installer', email: 'sam@solarpros.example' }, DOMAIN),
  owner: actorOf({ id: 4, role: 'owner', email: 'olga@home.example' }, DOMAIN),
} satisfies Record<string, Actor>;
type Who = keyof typeof ACTORS;
const WHO = Object.keys(ACTORS) as Who[];

/** Questions about the person alone, and who is answered yes. */
const PERSON_TABLE: [string, (actor: Actor) => boolean, Who[]][] = [
  ['is staff', isStaff, ['staff']],
  ['sees everything', seesEverything, ['admin', 'staff']],
  ['opens Site Manager', mayOpenSiteManager, ['staff']],
  ['opens Remote Debugger', mayOpenRemoteDebugger, ['staff']],
  ['sends raw frames', maySendRawFrames, ['staff']],
  ['uploads firmware images', mayUploadFirmware, ['staff']],
  ['opens the Firmware page', mayOpenFirmware, ['admin', 'staff']],
  ['creates sites', mayCreateSites, ['admin', 'staff', 'installer']],
  ['creates installers', mayCreateInstallers, ['admin']],
  ['changes roles', mayChangeRoles, ['admin']],
  ['creates their own keys', (a) => mayCreateKeys(a, a.id), ['admin', 'staff', 'installer', 'owner']],
  ["creates another user's keys", (a) => mayCreateKeys(a, 99), ['admin']],
  ['is worth linking to an installer', mayBeLinkedToInstaller, ['staff', 'installer', 'owner']],
];

describe('the access policy, person by person', () => {
  for (const [action, may, allowed] of PERSON_TABLE) {
    it(`${action}: ${allowed.join(', ')}`, () => {
      expect(WHO.filter((who) => may(ACTORS[who]))).toEqual(allowed);
    });
  }
});

/** A person's own record on a site: none, each role switched on, and installer switched off. */
const GRANTS = {
  none: null,
  installer: { roles: ['installer'], access: true },
  configurator: { roles: ['configurator'], access: true },
  owner: { roles: ['owner'], access: true },
  viewer: { roles: ['viewer'], access: true },
  'installer, switched off': { roles: ['installer'], access: false },
} satisfies Record<string, SiteGrant | null>;
type Grant = keyof typeof GRANTS;
const GRANT_NAMES = Object.keys(GRANTS) as Grant[];

/** Site questions: which grants let the installer (no company address) do it; admin and staff always may. */
const SITE_TABLE: [string, (actor: Actor, grant: SiteGrant | null) => boolean, Grant[]][] = [
  ['sees the site', maySeeSite, ['installer', 'configurator', 'owner', 'viewer']],
  ["manages the site's access", mayManageSiteAccess, ['installer']],
  ['edits the site', mayEditSite, ['installer', 'owner']],
  ['installs on the site', mayInstallOnSite, ['installer']],
  ["configures the site's devices", mayConfigureOnSite, ['installer', 'configurator']],
  ["acknowledges the site's alarms", mayAcknowledgeOnSite, ['installer', 'configurator', 'owner']],
  ["updates the site's firmware", mayUpdateFirmware, ['installer']],
  [
    "gets the site's events at its webhooks",
    mayReceiveSiteEvents,
    ['installer', 'configurator', 'owner', 'viewer'],
  ],
];

describe('the access policy, site by site', () => {
  for (const [action, may, allowed] of SITE_TABLE) {
    it(`${action}: by site role ${allowed.join(', ')}; admin and staff on any site`, () => {
      for (const who of WHO) {
        const granted = GRANT_NAMES.filter((grant) => may(ACTORS[who], GRANTS[grant]));
        // An owner account holds site roles as anyone does; the site role decides, not the user role.
        expect({ who, granted }).toEqual({
          who,
          granted: who === 'admin' || who === 'staff' ? GRANT_NAMES : allowed,
        });
      }
    });
  }
});

describe('the access policy, user by user', () => {
  const anotherOwner = { id: 40, role: 'owner' as const };
  const anotherInstaller = { id: 30, role: 'installer' as const };
  it('lets an admin edit anyone, an installer themself and owners, an owner only themself', () => {
    const table = WHO.map((who) => [
      who,
      mayEditUser(ACTORS[who], ACTORS[who]),
      mayEditUser(ACTORS[who], anotherOwner),
      mayEditUser(ACTORS[who], anotherInstaller),
    ]);
    expect(table).toEqual([
      ['admin', true, true, true],
      ['staff', true, true, false],
      ['installer', true, true, false],
      ['owner', true, false, false],
    ]);
  });

  it("changes a sign-in e-mail: an admin's without the password, one's own with it, nobody else's", () => {
    expect(
      WHO.map((who) => [mayChangeEmail(ACTORS[who], ACTORS[who].id), mayChangeEmail(ACTORS[who], 99)]),
    ).toEqual([
      ['yes', 'yes'],
      ['with-password', 'no'],
      ['with-password', 'no'],
      ['with-password', 'no'],
    ]);
  });
});

describe('locking oneself out of a site', () => {
  it('names what a change of their own record would take from someone who manages by site role', () => {
    const me = ACTORS.installer;
    expect(wouldLockThemselvesOut(me, { userId: me.id, roles: ['owner'] })).toBe('roles');
    expect(wouldLockThemselvesOut(me, { userId: me.id, roles: [] })).toBe('roles');
    expect(wouldLockThemselvesOut(me, { userId: me.id, access: false })).toBe('access');
    expect(wouldLockThemselvesOut(me, { userId: me.id, roles: ['installer', 'viewer'] })).toBe(false);
    expect(wouldLockThemselvesOut(me, { userId: me.id, access: true })).toBe(false);
    expect(wouldLockThemselvesOut(me, { userId: 77, roles: [] })).toBe(false);
  });

  it('never stops one who sees everything: they keep the right whatever their site roles', () => {
    for (const who of ['admin', 'staff'] as const) {
      const me = ACTORS[who];
      expect(wouldLockThemselvesOut(me, { userId: me.id, roles: [] })).toBe(false);
      expect(wouldLockThemselvesOut(me, { userId: me.id, access: false })).toBe(false);
    }
  });
});

describe('installer companies', () => {
  it('are run by their admins, who see every site of theirs; installers and viewers do neither', () => {
    const asked = (['admin', 'installer', 'viewer'] as const).map((role) => {
      const membership = { companyId: 7, role };
      return [
        role,
        seesEveryCompanySite(membership),
        mayRunCompany(membership),
        mayTakeOverSites(membership),
      ];
    });
    expect(asked).toEqual([
      ['admin', true, true, true],
      ['installer', false, false, false],
      ['viewer', false, false, false],
    ]);
    expect([seesEveryCompanySite(null), mayRunCompany(undefined)]).toEqual([false, false]);
  });

  it('take anyone but staff and site owners', () => {
    expect(WHO.filter((who) => mayJoinCompany(ACTORS[who]))).toEqual(['admin', 'installer']);
  });

  it('get a site handed over by its owner, or by one who sees everything', () => {
    const owner: SiteGrant = { roles: ['owner'], access: true };
    const installer: SiteGrant = { roles: ['installer'], access: true };
    expect(WHO.filter((who) => mayHandOverSite(ACTORS[who], owner))).toEqual([
      'admin',
      'staff',
      'installer',
      'owner',
    ]);
    expect(WHO.filter((who) => mayHandOverSite(ACTORS[who], installer))).toEqual(['admin', 'staff']);
    expect(mayHandOverSite(ACTORS.owner, { roles: ['owner'], access: false })).toBe(false);
  });
});

/** The same admin signed in, with a write key, and with a read key. */
const CALLERS = {
  person: ACTORS.admin,
  'write key': { ...ACTORS.admin, key: 'write' },
  'read key': { ...ACTORS.admin, key: 'read' },
} satisfies Record<string, Actor>;
type Caller = keyof typeof CALLERS;

const KEY_TABLE: [string, (actor: Actor) => boolean, Caller[]][] = [
  ['creates keys', (a) => mayCreateKeys(a, a.id), ['person']],
  ["creates another user's keys", (a) => mayCreateKeys(a, 99), ['person']],
  ['lists and revokes keys', mayManageKeys, ['person']],
  ['changes a password or e-mail', mayChangeSignIn, ['person']],
  ["changes another user's e-mail", (a) => mayChangeEmail(a, 99) !== 'no', ['person']],
  ['makes a call that changes state', mayChangeState, ['person', 'write key']],
];

describe('API keys act for their owner, never beyond', () => {
  for (const [action, may, allowed] of KEY_TABLE) {
    it(`${action}: ${allowed.join(', ')}`, () => {
      const callers = Object.keys(CALLERS) as Caller[];
      expect(callers.filter((who) => may(CALLERS[who]))).toEqual(allowed);
    });
  }
});
