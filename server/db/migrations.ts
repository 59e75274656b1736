import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Ordered schema changes. Each runs once, in a transaction, and is recorded in
 * `schema_migrations`; never edit one that has shipped, append a new one.
 */
const migrations: { version: number; name: string; sql: string }[] = [
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
  {
    version: 3,
    name: 'list totals kept by triggers',
    sql: `
      -- Totals and a change counter per user (user_id 0: every site), so a list page never
      -- counts 100k rows and cached page anchors know when they went stale.
      CREATE TABLE list_counts (
        user_id integer PRIMARY KEY,
        sites bigint NOT NULL DEFAULT 0,
        devices bigint NOT NULL DEFAULT 0,
        version bigint NOT NULL DEFAULT 0
      );
      ALTER TABLE sites ADD COLUMN device_count integer NOT NULL DEFAULT 0;

      CREATE FUNCTION bump_list_counts(owner integer, site_delta bigint, device_delta bigint) RETURNS void AS $$
        INSERT INTO list_counts (user_id, sites, devices, version) VALUES (owner, site_delta, device_delta, 1)
        ON CONFLICT (user_id) DO UPDATE SET sites = list_counts.sites + EXCLUDED.sites,
          devices = list_counts.devices + EXCLUDED.devices, version = list_counts.version + 1;
      $$ LANGUAGE sql;

      CREATE FUNCTION site_access_counts() RETURNS trigger AS $$
      BEGIN
        PERFORM bump_list_counts(d.user_id, sum(d.sign), sum(d.sign * s.device_count))
        FROM (
          SELECT user_id, site_id, 1 AS sign FROM new_rows WHERE access
          UNION ALL SELECT user_id, site_id, -1 FROM old_rows WHERE access
        ) d JOIN sites s ON s.id = d.site_id
        GROUP BY d.user_id HAVING sum(d.sign) <> 0;
        RETURN NULL;
      END $$ LANGUAGE plpgsql;

      CREATE FUNCTION site_access_insert_counts() RETURNS trigger AS $$
      BEGIN
        PERFORM bump_list_counts(n.user_id, count(*), sum(s.device_count))
        FROM new_rows n JOIN sites s ON s.id = n.site_id WHERE n.access GROUP BY n.user_id;
        RETURN NULL;
      END $$ LANGUAGE plpgsql;

      CREATE FUNCTION site_access_delete_counts() RETURNS trigger AS $$
      BEGIN
        -- Rows deleted by a site's own deletion: the site is gone, its device count with it.
        PERFORM bump_list_counts(o.user_id, -count(*), -coalesce(sum(s.device_count), 0))
        FROM old_rows o LEFT JOIN sites s ON s.id = o.site_id WHERE o.access GROUP BY o.user_id;
        RETURN NULL;
      END $$ LANGUAGE plpgsql;

      CREATE FUNCTION sites_counts() RETURNS trigger AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          PERFORM bump_list_counts(0, count(*), 0) FROM new_rows HAVING count(*) > 0;
        ELSE
          PERFORM bump_list_counts(0, -count(*), -coalesce(sum(device_count), 0)) FROM old_rows HAVING count(*) > 0;
        END IF;
        RETURN NULL;
      END $$ LANGUAGE plpgsql;

      CREATE FUNCTION devices_insert_counts() RETURNS trigger AS $$
      BEGIN
        UPDATE sites SET device_count = device_count + d.n
          FROM (SELECT site_id, count(*) AS n FROM new_rows GROUP BY site_id) d WHERE sites.id = d.site_id;
        PERFORM bump_list_counts(a.user_id, 0, count(*))
          FROM new_rows n JOIN site_access a ON a.site_id = n.site_id AND a.access GROUP BY a.user_id;
        PERFORM bump_list_counts(0, 0, count(*)) FROM new_rows HAVING count(*) > 0;
        RETURN NULL;
      END $$ LANGUAGE plpgsql;

      CREATE FUNCTION devices_delete_counts() RETURNS trigger AS $$
      BEGIN
        UPDATE sites SET device_count = device_count - d.n
          FROM (SELECT site_id, count(*) AS n FROM old_rows GROUP BY site_id) d WHERE sites.id = d.site_id;
        PERFORM bump_list_counts(a.user_id, 0, -count(*))
          FROM old_rows o JOIN site_access a ON a.site_id = o.site_id AND a.access GROUP BY a.user_id;
        PERFORM bump_list_counts(0, 0, -count(*)) FROM old_rows HAVING count(*) > 0;
        RETURN NULL;
      END $$ LANGUAGE plpgsql;

      CREATE TRIGGER site_access_insert AFTER INSERT ON site_access REFERENCING NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION site_access_insert_counts();
      CREATE TRIGGER site_access_update AFTER UPDATE ON site_access
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION site_access_counts();
      CREATE TRIGGER site_access_delete AFTER DELETE ON site_access REFERENCING OLD TABLE AS old_rows
        FOR EACH STATEMENT EXECUTE FUNCTION site_access_delete_counts();
      CREATE TRIGGER sites_insert AFTER INSERT ON sites REFERENCING NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION sites_counts();
      CREATE TRIGGER sites_delete AFTER DELETE ON sites REFERENCING OLD TABLE AS old_rows
        FOR EACH STATEMENT EXECUTE FUNCTION sites_counts();
      CREATE TRIGGER devices_insert AFTER INSERT ON devices REFERENCING NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION devices_insert_counts();
      CREATE TRIGGER devices_delete AFTER DELETE ON devices REFERENCING OLD TABLE AS old_rows
        FOR EACH STATEMENT EXECUTE FUNCTION devices_delete_counts();

      UPDATE sites SET device_count = d.n FROM (SELECT site_id, count(*) AS n FROM devices GROUP BY site_id) d
        WHERE sites.id = d.site_id;
      INSERT INTO list_counts (user_id, sites, devices, version)
        SELECT 0, count(*), coalesce(sum(device_count), 0), 1 FROM sites;
      INSERT INTO list_counts (user_id, sites, devices, version)
        SELECT a.user_id, count(*), sum(s.device_count), 1 FROM site_access a JOIN sites s ON s.id = a.site_id
        WHERE a.access GROUP BY a.user_id;
      -- Device lists of one user walk their sites in order, then each site's devices.
      CREATE INDEX site_access_user_all_idx ON site_access (user_id, site_id);
    `,
  },
];

/**
 * Bring the database to the newest schema. Safe to call from several processes at once: an
 * advisory lock makes the others wait, then they find nothing left to do.
 */
export async function migrate(db: Kysely<Database>): Promise<number[]> {
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
        if (applied.has(migration.version)) continue;
        await conn.transaction().execute(async (trx) => {
          await sql.raw(migration.sql).execute(trx);
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
