import { mayJoinCompany, mayRunCompany } from '../../../contracts/access-policy.ts';
import { ApiError } from '../../api/api-error.ts';
import { fetchMyCompany } from '../../api/companies-api.ts';
import type { AppRuntime } from '../../app/app-runtime.ts';
import { requireCurrentUser } from '../../app/current-user.ts';

/**
 * The signed-in user's company (null for someone in none) and what they may do in it. Company
 * staff and site owners belong to no installer company (`mayJoinCompany`, the question the menu
 * asks too).
 *
 * @throws ApiError 403 for company staff and site owners; the service's failure otherwise
 */
export async function loadCompany(runtime: AppRuntime) {
  const me = requireCurrentUser(runtime);
  if (!mayJoinCompany(me)) {
    throw new ApiError('Installer companies are for installers.', {
      status: 403,
      code: 'installers_only',
      path: '/company',
    });
  }
  const mine = await fetchMyCompany(runtime.configApi);
  return {
    me,
    mine,
    may: { run: mine !== null && mayRunCompany({ companyId: mine.company.id, role: mine.role }) },
  };
}
