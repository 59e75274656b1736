import type { Limit } from '../auth/rate-limit.ts';

/**
 * Limits on calls that anyone signed in (or any device, or anyone at all) can repeat, counted in
 * the database's `rate_limits` table in fixed windows, so every server process of a deployment
 * shares them (never process memory). Each is generous for a person or a device doing their work
 * and stops a script. Sign-in and code limits count failures only and live in
 * `server/auth/failure-limits.ts`.
 */
export const REQUEST_LIMITS = {
  /** Well-formed device hellos from one address (each costs a secret check). */
  helloPerAddress: { limit: 60, windowSeconds: 60 },
  /** `POST /service-comms/command` by one user, and from one address. */
  commandPerUser: { limit: 120, windowSeconds: 60 },
  commandPerAddress: { limit: 600, windowSeconds: 60 },
  /** Configuration-history records written by one user, for one device, and from one address. */
  historyWritePerUser: { limit: 60, windowSeconds: 600 },
  historyWritePerDevice: { limit: 20, windowSeconds: 600 },
  historyWritePerAddress: { limit: 300, windowSeconds: 600 },
  /** Configuration-history pages read by one user, and from one address. */
  historyReadPerUser: { limit: 300, windowSeconds: 60 },
  historyReadPerAddress: { limit: 1200, windowSeconds: 60 },
  /** `POST /auth/v2/logout` from one address, and for one user's tokens. */
  logoutPerAddress: { limit: 60, windowSeconds: 60 },
  logoutPerUser: { limit: 30, windowSeconds: 60 },
  /** Remote template applies by one user (each reaches up to 25 devices, one at a time). */
  templateApplyPerUser: { limit: 10, windowSeconds: 60 },
  /**
   * Commissioning reports read by one user; and reports built for one site (a report unchanged
   * since it was last built is answered from the cache and counts only for the user).
   */
  reportPerUser: { limit: 60, windowSeconds: 600 },
  reportBuildPerSite: { limit: 20, windowSeconds: 600 },
  /**
   * Claims (`POST /fleet/sites/{siteId}/claims`) by one user, and from one address: a site's
   * worth of devices in a few minutes, and far too few to guess a code (80 random bits).
   */
  claimPerUser: { limit: 60, windowSeconds: 600 },
  claimPerAddress: { limit: 300, windowSeconds: 600 },
  /** Secrets issued for provisioning over Bluetooth by one user (each replaces a device's secret). */
  provisionPerUser: { limit: 60, windowSeconds: 600 },
  /** Commissioning reports mailed to a site's owner, per site and per user. */
  reportMailPerSite: { limit: 5, windowSeconds: 3600 },
  reportMailPerUser: { limit: 30, windowSeconds: 3600 },
} as const satisfies Record<string, Limit>;

export type RequestLimitName = keyof typeof REQUEST_LIMITS;

/**
 * The checks for one kind of call: each named limit with its key.
 * @example hitRateLimit(db, limitChecks('command', { commandPerUser: user.id, commandPerAddress: address }))
 */
export function limitChecks(
  call: string,
  subjects: Partial<Record<RequestLimitName, string | number>>,
): { key: string; limit: Limit }[] {
  return Object.entries(subjects).map(([name, subject]) => ({
    key: `${call}:${name}:${subject}`,
    limit: REQUEST_LIMITS[name as RequestLimitName],
  }));
}
