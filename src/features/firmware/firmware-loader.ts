import { mayOpenFirmware, mayUploadFirmware } from '../../../contracts/access-policy.ts';
import { ApiError } from '../../api/api-error.ts';
import { fetchSiteChoices } from '../../api/site-choices-api.ts';
import type { AppRuntime } from '../../app/app-runtime.ts';
import { requireCurrentUser } from '../../app/current-user.ts';
import { fetchAllImages, fetchRollout, fetchRollouts } from './firmware-page-api.ts';

/**
 * Who may open the Firmware pages (`mayOpenFirmware`, the question the menu asks too).
 * @throws ApiError 403 for anyone else
 */
function requireFirmwareAccess(runtime: AppRuntime, path: string) {
  const user = requireCurrentUser(runtime);
  if (!mayOpenFirmware(user))
    throw new ApiError('The Firmware page is for company staff and admins.', {
      status: 403,
      code: 'staff_only',
      path,
    });
  return user;
}

/**
 * The Firmware page: every image, the newest rollouts, the sites a rollout may take (null when
 * they could not be read: serials still can), and whether the person may upload.
 */
export async function loadFirmware(runtime: AppRuntime, signal?: AbortSignal) {
  const user = requireFirmwareAccess(runtime, '/firmware');
  const [images, rollouts, sites] = await Promise.all([
    fetchAllImages(runtime.configApi, signal),
    fetchRollouts(runtime.configApi, signal),
    fetchSiteChoices(runtime.configApi, user.id, signal).catch(() => null),
  ]);
  return { images, rollouts, sites, mayUpload: mayUploadFirmware(user) };
}

/** A rollout's page. @throws ApiError 404 for a rollout the person may not see, or no rollout id */
export async function loadRollout(runtime: AppRuntime, rolloutid: string, signal?: AbortSignal) {
  requireFirmwareAccess(runtime, `/firmware-rollouts/${rolloutid}`);
  if (!/^\d{1,9}$/.test(rolloutid) || Number(rolloutid) < 1)
    throw new ApiError(`No rollout ${rolloutid}`, {
      status: 404,
      code: 'not_found',
      path: `/fleet/firmware-rollouts/${rolloutid}`,
    });
  return { rollout: await fetchRollout(runtime.configApi, Number(rolloutid), signal) };
}
