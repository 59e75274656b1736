import type { ApiKeyScope } from './api-keys.ts';
import type { CompanyRole } from './companies.ts';
import { isCompanyStaffEmail } from './company-staff.ts';
import type { SiteRole } from './sites.ts';
import type { UserRole } from './users.ts';

/**
 * Who may do what: the one policy the services enforce and the app asks before it offers a
 * screen, a menu item or a button. Pure functions of an actor (and the thing acted on), so one
 * table test covers every role and action, and no other file compares a role itself.
 *
 * The server's `server/access/` wraps these in middleware and checks that answer 404 or 403; the
 * app's loaders hand their answers to views as yes/no flags.
 */

/** Who asks: their id, their user role, and whether their e-mail makes them company staff. */
export interface Actor {
  id: number;
  role: UserRole;
  /** The sign-in e-mail ends with `@` and the company domain (`isCompanyStaffEmail`). */
  staff: boolean;
  /** Set when the call came with an API key rather than a person's sign-in: the key's scope. */
  key?: ApiKeyScope;
}

/**
 * The actor of a signed-in user, or of any user row, once the company domain is known.
 * @example actorOf({ id: 1, role: 'installer', email: 'sam@fleet.example' }, 'fleet.example').staff // true
 */
export function actorOf(
  user: { id: number; role: UserRole; email: string | null | undefined },
  companyDomain: string,
): Actor {
  return { id: user.id, role: user.role, staff: isCompanyStaffEmail(user.email, companyDomain) };
}

/** An actor's own access record on one site: their site roles, and whether it is switched on. */
export interface SiteGrant {
  roles: readonly string[];
  access: boolean;
}

/** Site roles that manage a site: change its owner and who has access to it. */
const MANAGING: readonly SiteRole[] = ['installer'];
/** Site roles that change a site's name and address. */
const EDITING: readonly SiteRole[] = ['installer', 'owner'];
/** Site roles that put devices on the site and move, rename, replace or take them off. */
const INSTALLING: readonly SiteRole[] = ['installer'];
/** Site roles that configure the site's devices (write settings, send catalogue commands). */
const CONFIGURING: readonly SiteRole[] = ['installer', 'configurator'];
/** Site roles that acknowledge the site's alarms: everyone with access but a viewer alone. */
const ACKNOWLEDGING: readonly SiteRole[] = ['owner', 'installer', 'configurator'];

function holds(grant: SiteGrant | null | undefined, roles: readonly SiteRole[]): boolean {
  return grant?.access === true && grant.roles.some((role) => (roles as readonly string[]).includes(role));
}

/** Company staff: the e-mail is in the company domain. Staff send raw frames and use Site Manager and Remote Debugger. */
export const isStaff = (actor: Actor): boolean => actor.staff;

/** An admin: gives roles, creates installers, issues device secrets, gives company addresses. */
export const isAdmin = (actor: Actor): boolean => actor.role === 'admin';

/** Whether every site, device and alarm is visible: admins and company staff. */
export const seesEverything = (actor: Actor): boolean => isAdmin(actor) || isStaff(actor);

/**
 * An installer: the user role that is given the installer role on the sites they create, and
 * that an owner is linked to.
 */
export const isInstaller = (user: { role: UserRole }): boolean => user.role === 'installer';

/** Whether linking a user to an installer means anything: an admin sees every user already. */
export const mayBeLinkedToInstaller = (user: { role: UserRole }): boolean => user.role !== 'admin';

/** Whether a user may be a site's owner: owner accounts only. */
export const mayOwnSites = (user: { role: UserRole }): boolean => user.role === 'owner';

/** Admins and installers: every user role but the site owners (list users, create sites, templates). */
export const isManager = (actor: Actor): boolean => actor.role !== 'owner';

/** Site Manager (every site and who has access to it) is company staff's screen. */
export const mayOpenSiteManager = isStaff;

/** Remote Debugger (raw frames to any device) is company staff's screen. */
export const mayOpenRemoteDebugger = isStaff;

/** Whether the actor sees a site: everything, or switched-on access to it. */
export function maySeeSite(actor: Actor, grant: SiteGrant | null | undefined): boolean {
  return seesEverything(actor) || grant?.access === true;
}

/**
 * Whether the actor's webhooks get a site's events: when the actor sees the site at the moment the
 * event happens (read then, so a person who loses a site stops getting its events). Webhooks are
 * managed by a person signed in or with a write key of theirs; a read key only lists them.
 */
export function mayReceiveSiteEvents(actor: Actor, grant: SiteGrant | null | undefined): boolean {
  return maySeeSite(actor, grant);
}

/** Whether the actor may change who has access to a site and its owner. */
export function mayManageSiteAccess(actor: Actor, grant: SiteGrant | null | undefined): boolean {
  return seesEverything(actor) || holds(grant, MANAGING);
}

/** Whether the actor may change a site's name and address. */
export function mayEditSite(actor: Actor, grant: SiteGrant | null | undefined): boolean {
  return seesEverything(actor) || holds(grant, EDITING);
}

/** Whether the actor may put devices on a site, move, rename, replace or take them off, archive it. */
export function mayInstallOnSite(actor: Actor, grant: SiteGrant | null | undefined): boolean {
  return seesEverything(actor) || holds(grant, INSTALLING);
}

/** Whether the actor may configure a device on a site (settings, catalogue commands). */
export function mayConfigureOnSite(actor: Actor, grant: SiteGrant | null | undefined): boolean {
  return seesEverything(actor) || holds(grant, CONFIGURING);
}

/** Whether the actor may acknowledge a site's alarms. */
export function mayAcknowledgeOnSite(actor: Actor, grant: SiteGrant | null | undefined): boolean {
  return seesEverything(actor) || holds(grant, ACKNOWLEDGING);
}

/**
 * Whether the actor may update a device's firmware on a site: company staff and admins, or the
 * site's installer (a configurator changes settings, not the software that reads them).
 */
export function mayUpdateFirmware(actor: Actor, grant: SiteGrant | null | undefined): boolean {
  return seesEverything(actor) || holds(grant, INSTALLING);
}

/**
 * Whether the actor may upload firmware images for the fleet: company staff only (an image goes
 * to every device of its model that someone updates).
 */
export const mayUploadFirmware = isStaff;

/**
 * Whether the actor may open the Firmware page (every image, rollouts to any device): whoever may
 * update firmware on every site, company staff and admins. Uploading on it is `mayUploadFirmware`'s.
 */
export const mayOpenFirmware = (actor: Actor): boolean => mayUpdateFirmware(actor, null);

/**
 * Whether the actor may create an API key for a user: their own (a key never acts beyond its
 * owner's current rights), or, for an admin, anyone's. A key never creates keys.
 */
export function mayCreateKeys(actor: Actor, forUserId: number): boolean {
  return actor.key === undefined && (actor.id === forUserId || isAdmin(actor));
}

/** Whether the actor may list and revoke their API keys: a person signed in, never a key. */
export function mayManageKeys(actor: Actor): boolean {
  return actor.key === undefined;
}

/** Whether the actor may change a sign-in's password or e-mail: a person signed in, never a key. */
export function mayChangeSignIn(actor: Actor): boolean {
  return actor.key === undefined;
}

/**
 * Whether the actor may make a call that changes state (any method but GET and HEAD): everyone
 * but a read-only key. Each route still asks whether the caller may change the thing itself.
 */
export function mayChangeState(actor: Actor): boolean {
  return actor.key !== 'read';
}

/** Whether the actor may send any frame to a device, not only its model's catalogue commands. */
export const maySendRawFrames = isStaff;

/** Whether the actor may create sites, list users and keep settings templates. */
export const mayCreateSites = isManager;

/** Whether the actor may create installers and issue device secrets. */
export const mayCreateInstallers = isAdmin;

/**
 * Whether the actor may change a user they can see: an admin anyone, an installer themself and
 * their owners, an owner only themself.
 */
export function mayEditUser(actor: Actor, target: { id: number; role: UserRole }): boolean {
  if (isAdmin(actor) || target.id === actor.id) return true;
  return actor.role === 'installer' && target.role === 'owner';
}

/** Whether the actor may give a user another role: only an admin. */
export const mayChangeRoles = isAdmin;

/** Whether the actor may send `role` for a user: no role, or the one they have, is no change. */
export function mayGiveRole(actor: Actor, target: { role: UserRole }, role: UserRole | undefined): boolean {
  return role === undefined || role === target.role || mayChangeRoles(actor);
}

/** Whether the actor may give a sign-in e-mail in the company domain (it makes its holder staff). */
export const mayGiveCompanyAddress = isAdmin;

/**
 * Whether the actor may change a user's sign-in e-mail, and whether the current password is
 * needed: an admin anyone's without it, a user their own with it.
 */
export function mayChangeEmail(actor: Actor, targetId: number): 'yes' | 'with-password' | 'no' {
  if (!mayChangeSignIn(actor)) return 'no';
  if (isAdmin(actor)) return 'yes';
  return actor.id === targetId ? 'with-password' : 'no';
}

/** A change of one user's access to a site: their new roles, or their new access flag. */
export interface AccessChange {
  userId: number;
  roles?: readonly string[];
  access?: boolean;
}

/**
 * What a change would take from the actor's own right to manage the site's access: `roles` when it
 * drops their last managing role, `access` when it switches their own access off, else false.
 * Someone who sees everything keeps the right whatever their site roles, so is never locked out.
 */
export function wouldLockThemselvesOut(actor: Actor, change: AccessChange): false | 'roles' | 'access' {
  if (seesEverything(actor) || change.userId !== actor.id) return false;
  if (
    change.roles !== undefined &&
    !change.roles.some((role) => (MANAGING as readonly string[]).includes(role))
  )
    return 'roles';
  return change.access === false ? 'access' : false;
}

/** An actor's place in an installer company: which company, and their company role. */
export interface Membership {
  companyId: number;
  role: CompanyRole;
}

/** Company roles that see (and manage) every site of their company, and run the company. */
export const RUNNING_COMPANY: readonly CompanyRole[] = ['admin'];

/**
 * Whether a member sees every site of their company, with the right to manage it: its admins.
 * Everyone else in the company sees the sites they hold access to, as before.
 */
export function seesEveryCompanySite(membership: Membership | null | undefined): boolean {
  return membership !== null && membership !== undefined && RUNNING_COMPANY.includes(membership.role);
}

/** Whether the actor may invite, remove, give company roles and change the company's details. */
export function mayRunCompany(membership: Membership | null | undefined): boolean {
  return seesEveryCompanySite(membership);
}

/**
 * Whether someone may belong to an installer company: anyone but company staff (who see every
 * site already) and site owners (customers of a company, not part of one).
 */
export function mayJoinCompany(user: Actor | { role: UserRole; staff: boolean }): boolean {
  return !user.staff && !mayOwnSites(user);
}

/** The site roles a company admin holds on each site of the company (kept as `by_company`). */
export const COMPANY_ADMIN_SITE_ROLES: readonly SiteRole[] = ['installer', 'configurator'];

/** Whether the actor may hand a site to another company: the site's owner, or someone who sees everything. */
export function mayHandOverSite(actor: Actor, grant: SiteGrant | null | undefined): boolean {
  return seesEverything(actor) || holds(grant, ['owner']);
}

/** Whether a member may accept (or decline) a site handed to their company: its admins. */
export const mayTakeOverSites = mayRunCompany;
