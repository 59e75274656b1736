import {
  type FirmwareImageInfo,
  firmwareImageSchema,
  firmwareListSchema,
  type Rollout,
  type RolloutCreate,
  type RolloutSummary,
  rolloutCreatedSchema,
  rolloutListSchema,
  rolloutSchema,
} from '../../../contracts/firmware.ts';
import type { FirmwareUpload } from '../../../machines/firmware/firmware-page-machine.ts';
import type { SteerAction } from '../../../machines/firmware/rollout-machine.ts';
import type { ApiClient } from '../../api/api-client.ts';

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

/** How many rollouts the Firmware page lists: the newest. */
export const ROLLOUTS_LISTED = 25;

/** `GET /fleet/firmware`: every image of the models the caller may update, newest first. @throws ApiError */
export async function fetchAllImages(api: ApiClient, signal?: AbortSignal): Promise<FirmwareImageInfo[]> {
  return firmwareListSchema.parse(await api('/fleet/firmware', withSignal(signal))).images;
}

/** `GET /fleet/firmware-rollouts`: the newest rollouts the caller may see. @throws ApiError */
export async function fetchRollouts(api: ApiClient, signal?: AbortSignal): Promise<RolloutSummary[]> {
  return rolloutListSchema.parse(
    await api('/fleet/firmware-rollouts', { query: { limit: ROLLOUTS_LISTED }, ...withSignal(signal) }),
  ).rollouts;
}

/** `POST /fleet/firmware?model=&channel=`: the image file as it is. @throws ApiError (400 `firmware_invalid`) */
export async function uploadImage(
  api: ApiClient,
  upload: FirmwareUpload,
  signal?: AbortSignal,
): Promise<FirmwareImageInfo> {
  return firmwareImageSchema.parse(
    await api('/fleet/firmware', {
      method: 'POST',
      query: { model: upload.model, channel: upload.channel },
      headers: { 'Content-Type': 'application/octet-stream' },
      body: upload.file,
      ...withSignal(signal),
    }),
  );
}

/** `POST /fleet/firmware-rollouts`: the new rollout's id. @throws ApiError */
export async function startRollout(
  api: ApiClient,
  request: RolloutCreate,
  signal?: AbortSignal,
): Promise<{ id: number }> {
  return rolloutCreatedSchema.parse(
    await api('/fleet/firmware-rollouts', { method: 'POST', body: request, ...withSignal(signal) }),
  );
}

/** `GET /fleet/firmware-rollouts/{id}`. @throws ApiError (404 for one the caller may not see) */
export async function fetchRollout(api: ApiClient, id: number, signal?: AbortSignal): Promise<Rollout> {
  return rolloutSchema.parse(await api(`/fleet/firmware-rollouts/${id}`, withSignal(signal)));
}

/** `POST /fleet/firmware-rollouts/{id}/pause|resume|cancel`. @throws ApiError (409 `rollout_state`) */
export async function steerRollout(
  api: ApiClient,
  id: number,
  action: SteerAction,
  signal?: AbortSignal,
): Promise<void> {
  await api(`/fleet/firmware-rollouts/${id}/${action}`, { method: 'POST', ...withSignal(signal) });
}
