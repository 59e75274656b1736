import { type Kysely, sql } from 'kysely';
import { API_KEYS_SQL } from './migration-api-keys.ts';
import { CLAIM_CODES_SQL } from './migration-claim-codes.ts';
import { CODE_HMAC_SQL } from './migration-code-hmac.ts';
import { COMMISSIONING_SQL } from './migration-commissioning.ts';
import { COMPANIES_SQL, fillCompanies, SITE_HANDOVERS_SQL } from './migration-companies.ts';
import { CONFIG_HISTORY_SQL } from './migration-config-history.ts';
import { FIRMWARE_SQL } from './migration-firmware.ts';
import { FIRMWARE_ROLLOUTS_SQL, ROLLOUT_WINDOW_SQL } from './migration-firmware-rollouts.ts';
import { FLEET_CHANGES_SQL } from './migration-fleet-changes.ts';
import { HISTORY_ORDER_SQL } from './migration-history-order.ts';
import { HISTORY_SEQUENCE_SQL } from './migration-history-sequence.ts';
import { INSTALLATIONS_SQL } from './migration-installations.ts';
import { LIST_COUNTS_SQL } from './migration-list-counts.ts';
import { LIST_VERSIONS_SQL } from './migration-list-versions.ts';
import { MONITORING_SQL } from './migration-monitoring.ts';
import { ONE_OWNER_SQL } from './migration-one-owner.ts';
import { SERVICE_COMMS_SQL } from './migration-service-comms.ts';
import { SESSIONS_OUTBOX_SQL } from './migration-sessions-outbox.ts';
import { SILENCE_ALARMS_SQL } from './migration-silence-alarms.ts';
import { fillSiteTimeZones, SITE_TIME_ZONES_SQL } from './migration-site-time-zones.ts';
import { SORT_INDEXES_SQL } from './migration-sort-indexes.ts';
import { STEP_READINGS_SQL } from './migration-step-readings.ts';
import { WEBHOOKS_SQL } from './migration-webhooks.ts';
import type { Database } from './schema.ts';

/** What a migration's data step may need from the configuration. */
export interface MigrateOptions {
  /** `TELEMETRY_TIME_ZONE`: the zone of a site with neither a position nor a known country. */
  fallbackZone?: string;
  /** `COMPANY_DOMAIN`: staff addresses, which join no installer company. */
  companyDomain?: string;
  /** The newest version to reach (a test of a migration starts from the one before it). */
  until?: number;
}

/**
 * Ordered schema changes. Each runs once, in a transaction, and is recorded in
 * `schema_migrations`; never edit one that has shipped, append a new one. `data` runs after the
 * SQL in the same transaction, for a change that needs code (a lookup SQL cannot do).
 */
const migrations: {
  version: number;
  name: string;
  sql: string;
  data?: (trx: Kysely<Database>, options: { fallbackZone: string; companyDomain: string }) => Promise<void>;
}[] = [
  {
    version: 1,
    name: 'users, sites, devices, access',
    sql: `
      CREATE TABLE users (
        id serial PRIMARY KEY,
        main_email text NOT NULL,
        display_name text NOT NULL,
        phone text,
        role text NOT NULL CHECK (role IN ('admin', 'installer', 'owner')),
        password_hash text,
        created_by integer REFERENCES users(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX users_email_key ON users (lower(main_email));
      CREATE INDEX users_created_by_idx ON users (created_by, id);
      CREATE INDEX users_role_idx ON users (role, id);
      CREATE TABLE user_installers (
        user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        installer_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        PRIMARY KEY (installer_id, user_id)
      );
      CREATE TABLE sites (
        id serial PRIMARY KEY,
        name text NOT NULL,
        display_address text NOT NULL,
        street_number text NOT NULL DEFAULT '',
        street_name text NOT NULL DEFAULT '',
        postal_code text NOT NULL DEFAULT '',
        locality text NOT NULL DEFAULT '',
        state text NOT NULL DEFAULT '',
        country text NOT NULL DEFAULT '',
        latitude double precision NOT NULL,
        longitude double precision NOT NULL,
        place_id text,
        owner_id integer REFERENCES users(id) ON DELETE SET NULL,
        installer_id integer REFERENCES users(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE site_access (
        site_id integer NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
        user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        roles text[] NOT NULL DEFAULT '{}',
        access boolean NOT NULL DEFAULT true,
        PRIMARY KEY (site_id, user_id)
      );
      -- Lists of a user's sites walk this index in site order: paging never sorts.
      CREATE INDEX site_access_user_idx ON site_access (user_id, site_id) WHERE access;
      CREATE TABLE devices (
        id serial PRIMARY KEY,
        model_id text NOT NULL,
        serial text NOT NULL UNIQUE,
        name text NOT NULL,
        site_id integer NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
        installed_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX devices_site_idx ON devices (site_id, id);
      CREATE INDEX devices_model_idx ON devices (model_id, id);
    `,
  },
  {
    version: 2,
    name: 'tokens, codes, rate limits, outbox',
    sql: `
      CREATE TABLE refresh_tokens (
        id serial PRIMARY KEY,
        token_hash text NOT NULL UNIQUE,
        family_id uuid NOT NULL,
        user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        service text NOT NULL CHECK (service IN ('config', 'monitoring')),
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id);
      CREATE TABLE one_time_codes (
        id serial PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        purpose text NOT NULL CHECK (purpose IN ('reset', 'access')),
        code_hash text NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX one_time_codes_user_idx ON one_time_codes (user_id, purpose);
      CREATE TABLE rate_limits (
        key text NOT NULL,
        window_start timestamptz NOT NULL,
        hits integer NOT NULL,
        PRIMARY KEY (key, window_start)
      );
      CREATE TABLE outbox (
        id serial PRIMARY KEY,
        to_address text NOT NULL,
        subject text NOT NULL,
        body text NOT NULL,
        sent_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  { version: 3, name: 'list totals kept by triggers', sql: LIST_COUNTS_SQL },
  { version: 4, name: 'list versions move on edits', sql: LIST_VERSIONS_SQL },
  { version: 5, name: 'session cut-off, refresh grace, mail queue', sql: SESSIONS_OUTBOX_SQL },
  { version: 6, name: 'configuration history', sql: CONFIG_HISTORY_SQL },
  { version: 7, name: 'device secrets, presence and command log', sql: SERVICE_COMMS_SQL },
  { version: 8, name: 'configuration history in the order received', sql: HISTORY_ORDER_SQL },
  { version: 9, name: 'one-time codes keyed outside the database', sql: CODE_HMAC_SQL },
  { version: 10, name: 'configuration history numbered as received', sql: HISTORY_SEQUENCE_SQL },
  {
    version: 11,
    name: 'commissioning: installs, archive, audit, templates, attachments',
    sql: COMMISSIONING_SQL,
  },
  { version: 12, name: 'telemetry, rollups and alarms', sql: MONITORING_SQL },
  { version: 13, name: 'one owner per site, in sites.owner_id and the owner role', sql: ONE_OWNER_SQL },
  { version: 14, name: 'indexes for lists sorted on the server', sql: SORT_INDEXES_SQL },
  { version: 15, name: "installations: a device's stay on a site owns its past", sql: INSTALLATIONS_SQL },
  {
    version: 16,
    name: "every site has a time zone, its days' clock",
    sql: SITE_TIME_ZONES_SQL,
    data: (trx, options) => fillSiteTimeZones(trx, options.fallbackZone),
  },
  { version: 17, name: 'silence alarms: never connected, whole sites, the watch', sql: SILENCE_ALARMS_SQL },
  { version: 18, name: 'the sites that changed, notified for live screens', sql: FLEET_CHANGES_SQL },
  {
    version: 19,
    name: 'installer companies: members, invitations, sites',
    sql: COMPANIES_SQL,
    data: (trx, options) => fillCompanies(trx, options.companyDomain),
  },
  { version: 20, name: 'handing a site over to another installer company', sql: SITE_HANDOVERS_SQL },
  { version: 21, name: 'claim codes: manufacturing lists, claimed devices', sql: CLAIM_CODES_SQL },
  { version: 22, name: 'API keys: stored under an HMAC, a token bucket each, audited', sql: API_KEYS_SQL },
  { version: 23, name: "firmware images, and each device's firmware version", sql: FIRMWARE_SQL },
  { version: 24, name: 'webhooks: endpoints, events, a delivery outbox and its attempts', sql: WEBHOOKS_SQL },
  {
    version: 26,
    name: "firmware rollouts: waves, each device's state, the audit of every step",
    sql: FIRMWARE_ROLLOUTS_SQL,
  },
  { version: 27, name: "a rollout's window for devices offline at their turn", sql: ROLLOUT_WINDOW_SQL },
  { version: 28, name: 'each 5-minute step counts its readings', sql: STEP_READINGS_SQL },
];

/**
 * Bring the database to the newest schema (or, for a test of a migration, to version `until`).
 * Safe to call from several processes at once: an advisory lock makes the others wait, then they
 * find nothing left to do.
 */
export async function migrate(db: Kysely<Database>, options: MigrateOptions = {}): Promise<number[]> {
  const settings = {
    fallbackZone: options.fallbackZone ?? 'UTC',
    companyDomain: options.companyDomain ?? '',
  };
  const until = options.until ?? Number.POSITIVE_INFINITY;
  return db.connection().execute(async (conn) => {
    await sql`SELECT pg_advisory_lock(7261001)`.execute(conn);
    try {
      await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
        version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`.execute(
        conn,
      );
      const done = await sql<{ version: number }>`SELECT version FROM schema_migrations`.execute(conn);
      const applied = new Set(done.rows.map((row) => row.version));
      const ran: number[] = [];
      for (const migration of migrations) {
        if (applied.has(migration.version) || migration.version > until) continue;
        await conn.transaction().execute(async (trx) => {
          await sql.raw(migration.sql).execute(trx);
          await migration.data?.(trx, settings);
          await sql`INSERT INTO schema_migrations (version, name) VALUES (${migration.version}, ${migration.name})`.execute(
            trx,
          );
        });
        ran.push(migration.version);
      }
      return ran;
    } finally {
      await sql`SELECT pg_advisory_unlock(7261001)`.execute(conn);
    }
  });
}
