import { ApiError } from '../../api/api-error.ts';
import type { AppRuntime } from '../../app-runtime.ts';
import { fetchInstall } from './devices-api.ts';

const SERIAL = /^[A-Z0-9]{2,8}-\d{2}-\d{6}$/;

/** Device details search: `?serial=HX5K-24-000123` picks one device of the model in the path. */
export function deviceSearch(search: Record<string, unknown>): { serial?: string } {
  const serial = typeof search.serial === 'string' ? search.serial.trim().toUpperCase() : '';
  return serial ? { serial } : {};
}

/**
 * The device `{deviceid}` (its model id) with `serial`, or every visible device of that model.
 *
 * @throws ApiError 404 for a serial that is malformed or not visible
 */
export async function loadDeviceDetails(runtime: AppRuntime, modelId: string, serial?: string) {
  if (serial && !SERIAL.test(serial)) {
    throw new ApiError(`${serial} is not a serial number (they look like HX5K-24-000123)`, {
      status: 404,
      code: 'not_found',
      path: `/install/device/${modelId}`,
    });
  }
  const page = await fetchInstall(runtime.configApi, modelId, serial);
  return { modelId, serial: serial ?? null, page };
}
