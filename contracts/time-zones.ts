import { z } from 'zod';

/** Whether this JavaScript engine knows `zone` as an IANA time zone. */
function knownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * An IANA time zone name such as `America/Chicago`, `Europe/Berlin` or `UTC`: the zone whose
 * midnight starts a site's day (daily energy, "today", the charts' clock, alarm times, reports).
 */
export const timeZoneSchema = z
  .string()
  .trim()
  .min(1, 'must be an IANA time zone such as Europe/Berlin or America/Chicago')
  .max(64, 'must be an IANA time zone such as Europe/Berlin or America/Chicago')
  .regex(/^[A-Za-z][A-Za-z0-9_+\-/]*$/, 'must be an IANA time zone such as Europe/Berlin or America/Chicago')
  .refine(knownZone, 'must be an IANA time zone such as Europe/Berlin or America/Chicago');
