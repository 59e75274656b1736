import { mayCreateSites } from '../../../contracts/access-policy.ts';
import { errorMessage } from '../../../contracts/error-message.ts';
import type { Overview } from '../../../contracts/monitoring.ts';
import { fetchOverview } from '../../api/monitoring-api.ts';
import type { AppRuntime } from '../../app/app-runtime.ts';
import { currentUserOf } from '../../app/current-user.ts';

/** The overview, or why it could not be loaded (the rest of Home still shows). */
export type OverviewResult = { overview: Overview; error: null } | { overview: null; error: string };

/** Home: the person's fleet now from the monitoring service. Never throws. */
export async function loadLanding(runtime: AppRuntime) {
  const user = currentUserOf(runtime.auth.getSnapshot(), runtime.config.companyDomain);
  const result: OverviewResult = await fetchOverview(runtime.monitoringApi).then(
    (overview) => ({ overview, error: null }),
    (error: unknown) => ({ overview: null, error: errorMessage(error) }),
  );
  return { user, mayCreateSite: user !== null && mayCreateSites(user), ...result };
}
