import { ApiError } from '../../api/api-error.ts';
import type { AppRuntime } from '../../app/app-runtime.ts';
import { fetchInstall } from './devices-api.ts';

const SERIAL = /^[A-Z0-9]{2,8}-\d{2}-\d{6}$/;

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
