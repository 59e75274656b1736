/**
 * Migration 3: totals and a change counter per user (user_id 0: every site), kept by statement
 * triggers on sites, site_access and devices, so a list page never counts 100k rows and cached
 * page anchors know when they went stale.
 */
export const LIST_COUNTS_SQL = `
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
    `;
