import { devicePageSchema } from '../../../contracts/devices.ts';
import {
  deviceAnswerSchema,
  type OnlineDevice,
  onlineDevicesSchema,
} from '../../../contracts/service-comms.ts';
import type { DebugDevice } from '../../../machines/remote-debugger/debugger-types.ts';
import { ExchangeFailure } from '../../../machines/remote-debugger/debugger-types.ts';
import type { ApiClient } from '../../api/api-client.ts';
import { ApiError } from '../../api/api-error.ts';

/** How many devices the search shows at once. */
export const SEARCH_PAGE_SIZE = 20;

/**
 * The devices `userId` sees whose serial, name or site matches `query`
 * (`GET /fleet/devices/all/{userId}`).
 * @throws ApiError when the call fails
 */
export async function searchDebugDevices(
  api: ApiClient,
  userId: number,
  query: string,
  signal?: AbortSignal,
): Promise<DebugDevice[]> {
  const page = devicePageSchema.parse(
    await api(`/fleet/devices/all/${userId}`, {
      query: { page: 0, pageSize: SEARCH_PAGE_SIZE, ...(query ? { q: query } : {}) },
      ...(signal ? { signal } : {}),
    }),
  );
  return page.items.map((d) => ({
    serialNumber: d.serial,
    modelId: d.modelId,
    name: d.name,
    siteName: d.siteName,
  }));
}

/**
 * The devices connected now (`GET /config/service-comms/devices/online`).
 * @returns null when this service has no online list (it answers 404), so the remote path is off
 * @throws ApiError for any other failure
 */
export async function fetchOnlineDevices(api: ApiClient): Promise<OnlineDevice[] | null> {
  try {
    return onlineDevicesSchema.parse(await api('/service-comms/devices/online')).devices;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** The failure a person reads for each answer of the command call. */
function commandFailure(error: unknown): ExchangeFailure {
  if (!(error instanceof ApiError)) return new ExchangeFailure('failed', String(error), { cause: error });
  const says = (fallback: string) => `${fallback} (${error.message})`;
  switch (error.status) {
    case 409:
      return new ExchangeFailure('offline', says('The device is offline: it went away before it answered'), {
        cause: error,
      });
    case 504:
      return new ExchangeFailure('timeout', says('The device did not answer in time'), { cause: error });
    case 404:
      return new ExchangeFailure('failed', says('The service does not know this device'), { cause: error });
    case 403:
      return new ExchangeFailure('failed', says('You may not send commands to this device'), {
        cause: error,
      });
    case 400:
      return new ExchangeFailure('failed', says('The service refused the frame'), { cause: error });
    default:
      return new ExchangeFailure('failed', says('The command could not be delivered'), { cause: error });
  }
}

/**
 * Sends a frame to an online device (`POST /config/service-comms/command`, Bearer only: the header
 * rules leave the api-key off `/service-comms` paths) and resolves with its answer frame.
 * @throws ExchangeFailure 'offline' (409), 'timeout' (504) or 'failed' (anything else)
 */
export async function sendRemoteCommand(
  api: ApiClient,
  serialNumber: string,
  frame: Uint8Array,
): Promise<Uint8Array> {
  let answer: unknown;
  try {
    answer = await api('/service-comms/command', {
      method: 'POST',
      body: { serialNumber, data: Array.from(frame) },
    });
  } catch (error) {
    throw commandFailure(error);
  }
  const parsed = deviceAnswerSchema.safeParse(answer);
  if (!parsed.success)
    throw new ExchangeFailure('failed', 'The service answered something that is not a device frame.');
  return Uint8Array.from(parsed.data.data);
}
