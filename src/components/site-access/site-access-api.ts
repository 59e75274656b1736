import type { SiteGrant } from '../../../contracts/access-policy.ts';
import {
  type ChangeRolesRequest,
  type SetAccessRequest,
  type SiteDetails,
  siteAccessSchema,
  siteDetailsSchema,
} from '../../../contracts/sites.ts';
import type { ApiClient } from '../../api/api-client.ts';

/** A site with everyone's roles and access flag, and its device count (`GET /fleet/sites/{id}`). @throws ApiError */
export async function fetchSite(api: ApiClient, siteId: number) {
  return siteDetailsSchema.parse(await api(`/fleet/sites/${siteId}`));
}

/** `PUT /fleet/site-access/change-roles`: creates the access row (access on) when missing. @throws ApiError */
export async function changeRoles(api: ApiClient, body: ChangeRolesRequest, signal?: AbortSignal) {
  return siteAccessSchema.parse(
    await api('/fleet/site-access/change-roles', { method: 'PUT', body, ...(signal ? { signal } : {}) }),
  );
}

/** `PUT /fleet/site-access/set-access`: keeps the roles. @throws ApiError */
export async function setAccess(api: ApiClient, body: SetAccessRequest, signal?: AbortSignal) {
  return siteAccessSchema.parse(
    await api('/fleet/site-access/set-access', { method: 'PUT', body, ...(signal ? { signal } : {}) }),
  );
}

/** A person's own access record on a site (their roles and switch), as the access policy asks it; null when they have none. */
export function grantOn(site: SiteDetails, userId: number): SiteGrant | null {
  return site.access.find((row) => row.userId === userId) ?? null;
}
