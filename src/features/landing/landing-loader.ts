import { devicePageSchema } from '../../../contracts/devices.ts';
import { type Site, sitePageSchema } from '../../../contracts/sites.ts';
import { userPageSchema } from '../../../contracts/users.ts';
import type { AppRuntime } from '../../app/app-runtime.ts';
import { currentUserOf } from '../../app/current-user.ts';

const RECENT = 5;

/** A count, or null when its call failed (the others still show). */
const countOrNull = (call: Promise<{ total: number }>) => call.then((page) => page.total).catch(() => null);

/** The most recently created sites, newest first: the server sorts the whole list (`-id`). */
async function recentSites(runtime: AppRuntime, userId: number): Promise<Site[]> {
  const answer = await runtime.configApi(`/fleet/sites/all/${userId}/0`, {
    query: { pageSize: RECENT, sort: '-id' },
  });
  return sitePageSchema.parse(answer).items;
}

/** Home: how many sites, devices and users the person sees, and the newest sites. Never throws. */
export async function loadLanding(runtime: AppRuntime) {
  const user = currentUserOf(runtime.auth.getSnapshot());
  if (!user) return { user: null, sites: null, devices: null, users: null, recent: null };
  const api = runtime.configApi;
  const one = { query: { pageSize: 1 } };
  const [sites, devices, users] = await Promise.all([
    countOrNull(api(`/fleet/sites/all/${user.id}/0`, one).then((a) => sitePageSchema.parse(a))),
    countOrNull(api(`/fleet/devices/all/${user.id}`, one).then((a) => devicePageSchema.parse(a))),
    countOrNull(api(`/fleet/user-list/${user.id}/0`, one).then((a) => userPageSchema.parse(a))),
  ]);
  const recent = sites === null ? null : await recentSites(runtime, user.id).catch(() => null);
  return { user, sites, devices, users, recent };
}
