/**
 * Migration 18: the database says which sites changed, so that screens showing counts, alarms
 * and online badges update live on every process (`server/monitoring/fleet-feed.ts`).
 *
 * Triggers NOTIFY `fleet_changes` with `{"s": [site ids]}` (or `{"s": null}`: too many to list,
 * every site) when an alarm is raised or moves (acknowledged, cleared), when a device connects or
 * disconnects (`device_presence` rows come, go or change holder; the heartbeat's refreshes do
 * not), and when devices or sites are added, moved or removed. NOTIFY is delivered on commit,
 * once per distinct payload of a transaction, to every process listening.
 */
export const FLEET_CHANGES_SQL = `
  CREATE FUNCTION notify_fleet_sites(site_ids integer[]) RETURNS void AS $$
    SELECT pg_notify('fleet_changes',
      CASE WHEN cardinality(ids) > 500 THEN '{"s":null}' ELSE json_build_object('s', ids)::text END)
    FROM (SELECT array_agg(DISTINCT id ORDER BY id) AS ids FROM unnest(site_ids) AS id WHERE id IS NOT NULL) u
    WHERE ids IS NOT NULL;
  $$ LANGUAGE sql;

  CREATE FUNCTION alarms_changed() RETURNS trigger AS $$
  BEGIN
    PERFORM notify_fleet_sites(array(
      SELECT coalesce(d.site_id, n.site_id) FROM new_rows n LEFT JOIN devices d ON d.id = n.device_id));
    RETURN NULL;
  END $$ LANGUAGE plpgsql;
  CREATE TRIGGER alarms_insert_changed AFTER INSERT ON alarms
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION alarms_changed();
  CREATE TRIGGER alarms_update_changed AFTER UPDATE ON alarms
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION alarms_changed();

  CREATE FUNCTION presence_came() RETURNS trigger AS $$
  BEGIN
    PERFORM notify_fleet_sites(array(SELECT d.site_id FROM new_rows n JOIN devices d ON d.id = n.device_id));
    RETURN NULL;
  END $$ LANGUAGE plpgsql;
  CREATE FUNCTION presence_went() RETURNS trigger AS $$
  BEGIN
    PERFORM notify_fleet_sites(array(SELECT d.site_id FROM old_rows o JOIN devices d ON d.id = o.device_id));
    RETURN NULL;
  END $$ LANGUAGE plpgsql;
  CREATE FUNCTION presence_moved() RETURNS trigger AS $$
  BEGIN
    PERFORM notify_fleet_sites(array(SELECT site_id FROM devices WHERE id = NEW.device_id));
    RETURN NULL;
  END $$ LANGUAGE plpgsql;
  CREATE TRIGGER presence_insert_changed AFTER INSERT ON device_presence
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION presence_came();
  CREATE TRIGGER presence_delete_changed AFTER DELETE ON device_presence
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION presence_went();
  -- A connection taken over (a claim's upsert); the heartbeat sets only seen_at and fires nothing.
  CREATE TRIGGER presence_update_changed AFTER UPDATE OF holder, connected_at ON device_presence
    FOR EACH ROW EXECUTE FUNCTION presence_moved();

  CREATE FUNCTION devices_changed() RETURNS trigger AS $$
  BEGIN
    IF TG_OP = 'INSERT' THEN
      PERFORM notify_fleet_sites(array(SELECT site_id FROM new_rows));
    ELSIF TG_OP = 'DELETE' THEN
      PERFORM notify_fleet_sites(array(SELECT site_id FROM old_rows));
    ELSE
      PERFORM notify_fleet_sites(array(SELECT site_id FROM new_rows UNION SELECT site_id FROM old_rows));
    END IF;
    RETURN NULL;
  END $$ LANGUAGE plpgsql;
  CREATE TRIGGER devices_insert_changed AFTER INSERT ON devices
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION devices_changed();
  CREATE TRIGGER devices_delete_changed AFTER DELETE ON devices
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION devices_changed();
  CREATE TRIGGER devices_update_changed AFTER UPDATE ON devices
    REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION devices_changed();

  CREATE FUNCTION sites_changed() RETURNS trigger AS $$
  BEGIN
    IF TG_OP = 'INSERT' THEN
      PERFORM notify_fleet_sites(array(SELECT id FROM new_rows));
    ELSE
      PERFORM notify_fleet_sites(array(SELECT id FROM old_rows));
    END IF;
    RETURN NULL;
  END $$ LANGUAGE plpgsql;
  CREATE TRIGGER sites_insert_changed AFTER INSERT ON sites
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sites_changed();
  CREATE TRIGGER sites_delete_changed AFTER DELETE ON sites
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION sites_changed();
`;
