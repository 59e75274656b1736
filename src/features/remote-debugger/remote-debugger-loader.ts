import { isCompanyStaff } from '../../../machines/auth/auth-selectors.ts';
import { ApiError } from '../../api/api-error.ts';
import type { AppRuntime } from '../../app/app-runtime.ts';
import { requireCurrentUser } from '../../app/current-user.ts';
import { loadCodec } from '../../codec/load-browser.ts';

/**
 * The Remote Debugger sends raw frames, which are for company staff only (an e-mail of the company
 * domain, `contracts/company-staff.ts`): the page is theirs, and the service refuses a raw frame
 * from anyone else, who may send only a device's catalogue commands, and only to devices on sites
 * where they hold the installer or configurator role. Loads the codec that builds and checks the
 * frames.
 *
 * @throws ApiError 403 for anyone who is not company staff; CodecLoadError when the codec fails to load
 */
export async function loadRemoteDebugger(runtime: AppRuntime) {
  const user = requireCurrentUser(runtime);
  if (!isCompanyStaff(runtime.auth.getSnapshot(), runtime.config.companyDomain)) {
    throw new ApiError('Remote Debugger is for company staff.', {
      status: 403,
      code: 'staff_only',
      path: '/remote-debugger',
    });
  }
  return { user, codec: await loadCodec() };
}
