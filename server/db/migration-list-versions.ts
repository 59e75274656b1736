/**
 * Migration 4: move a list's version on every change that its pages show, not only on changes
 * of its totals, so a page answered from a cache keyed by version is never stale. Migration 3
 * covers rows entering and leaving a list; this adds edits of sites (name, address, owner, and
 * the device counts the device triggers keep) and of devices (name, serial, model), and keeps
 * the device counts right when a device moves to another site.
 */
export const LIST_VERSIONS_SQL = `
      CREATE FUNCTION sites_update_versions() RETURNS trigger AS $$
      BEGIN
        PERFORM bump_list_counts(0, 0, 0) FROM new_rows HAVING count(*) > 0;
        PERFORM bump_list_counts(a.user_id, 0, 0)
          FROM (SELECT DISTINCT a.user_id FROM new_rows n JOIN site_access a ON a.site_id = n.id) a;
        RETURN NULL;
      END $$ LANGUAGE plpgsql;

      CREATE FUNCTION devices_update_versions() RETURNS trigger AS $$
      BEGIN
        -- A device moved to another site takes its count along, for the sites and their users.
        UPDATE sites SET device_count = device_count + m.n
          FROM (
            SELECT site_id, sum(n) AS n FROM (
              SELECT n.site_id, 1 AS n FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE o.site_id <> n.site_id
              UNION ALL
              SELECT o.site_id, -1 FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE o.site_id <> n.site_id
            ) moves GROUP BY site_id
          ) m WHERE sites.id = m.site_id;
        PERFORM bump_list_counts(a.user_id, 0, sum(m.n))
          FROM (
            SELECT n.site_id, 1 AS n FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE o.site_id <> n.site_id
            UNION ALL
            SELECT o.site_id, -1 FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE o.site_id <> n.site_id
          ) m JOIN site_access a ON a.site_id = m.site_id AND a.access
          GROUP BY a.user_id HAVING sum(m.n) <> 0;
        PERFORM bump_list_counts(0, 0, 0) FROM new_rows HAVING count(*) > 0;
        PERFORM bump_list_counts(a.user_id, 0, 0)
          FROM (
            SELECT DISTINCT a.user_id FROM (
              SELECT site_id FROM new_rows UNION SELECT site_id FROM old_rows
            ) d JOIN site_access a ON a.site_id = d.site_id
          ) a;
        RETURN NULL;
      END $$ LANGUAGE plpgsql;

      CREATE TRIGGER sites_update AFTER UPDATE ON sites REFERENCING NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION sites_update_versions();
      CREATE TRIGGER devices_update AFTER UPDATE ON devices
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION devices_update_versions();
    `;
