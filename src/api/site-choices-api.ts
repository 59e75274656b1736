import { sitePageSchema } from '../../contracts/sites.ts';
import type { SiteChoices } from '../../machines/account/webhooks-machine.ts';
import type { ApiClient } from './api-client.ts';

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

/** How many sites a site picker offers, A–Z. */
export const SITE_CHOICES = 100;

/**
 * The first `SITE_CHOICES` sites `userId` sees, A–Z, and how many they see in all: what a webhook
 * or a rollout may be limited to. @throws ApiError
 */
export async function fetchSiteChoices(
  api: ApiClient,
  userId: number,
  signal?: AbortSignal,
): Promise<SiteChoices> {
  const page = sitePageSchema.parse(
    await api(`/fleet/sites/all/${userId}/0`, {
      query: { pageSize: SITE_CHOICES, sort: 'name' },
      ...withSignal(signal),
    }),
  );
  return { sites: page.items.map(({ id, name }) => ({ id, name })), total: page.total };
}
