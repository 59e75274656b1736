import { type Kysely, sql } from 'kysely';
import { suggestedZone } from '../../src/time-zones/site-zone.ts';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';

/**
 * A site's zone where the caller named none: the zone at its position, else its country's, else
 * `fallback` (`TELEMETRY_TIME_ZONE`). A zone the database does not know is never chosen, since
 * days are counted in SQL (`AT TIME ZONE`) too.
 * @example siteZone({ latitude: 30.27, longitude: -97.74, country: 'US' }, 'UTC', known) // 'America/Chicago'
 */
export function siteZone(
  site: { latitude: number; longitude: number; country: string },
  fallback: string,
  known: ReadonlySet<string>,
): string {
  const zone = suggestedZone(site);
  return zone && known.has(zone) ? zone : fallback;
}

let databaseZones: Promise<Set<string>> | undefined;

/** The zones PostgreSQL knows (`pg_timezone_names`), read once per process. */
export function zonesOfDatabase(db: Kysely<Database>): Promise<Set<string>> {
  databaseZones ??= sql<{ name: string }>`SELECT name FROM pg_timezone_names`
    .execute(db)
    .then((result) => new Set(result.rows.map((row) => row.name)));
  databaseZones.catch(() => {
    databaseZones = undefined;
  });
  return databaseZones;
}

/**
 * `zone`, if the database knows it too (the app offers the browser's zones; PostgreSQL's list
 * may lack a zone created after its release).
 * @throws {ApiError} 400 naming `timeZone`.
 */
export async function requireDatabaseZone(db: Kysely<Database>, zone: string): Promise<string> {
  if ((await zonesOfDatabase(db)).has(zone)) return zone;
  throw new ApiError(
    400,
    'invalid_input',
    `timeZone: ${zone} is not a time zone this service knows; pick another zone of the same offset`,
    'timeZone',
  );
}
