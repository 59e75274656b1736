/**
 * Migration 15, installations: a device's stay on one site (DESIGN.md §5: history, audit and
 * reports belong to an installation, never to a bare serial). Kept by the database itself: a
 * device put on a site begins one, a move ends it and begins another at the new site, a device
 * taken off or replaced ends it; configuration history and audit records are stamped with the
 * installation of their serial as they are written. What a caller may read of a serial's past is
 * decided in `server/commissioning/installations.ts`.
 *
 * The past is split the same way: each stay recorded in the audit (installed, moved, replaced,
 * removed) becomes an installation, a device with no such record one from its install time, and
 * every history and audit record goes to the installation of its serial that held the device
 * when it was received.
 */
export const INSTALLATIONS_SQL = `
  CREATE TABLE installations (
    id serial PRIMARY KEY,
    serial text NOT NULL,
    model_id text NOT NULL,
    -- No foreign key: an archived site's installations stay, for company staff.
    site_id integer NOT NULL,
    -- The devices row during the stay (a move keeps it; a new install or a replacement makes one).
    device_id integer NOT NULL,
    started_at timestamptz NOT NULL DEFAULT now(),
    ended_at timestamptz
  );
  ALTER TABLE config_history ADD COLUMN installation_id integer REFERENCES installations(id);
  ALTER TABLE install_audit ADD COLUMN installation_id integer REFERENCES installations(id);

  -- The past, stay by stay, from the audit: a stay begins at installed / moved (to its site) /
  -- replaced (the new unit) and ends at the next moved / removed / replaced (the old unit).
  CREATE TEMPORARY TABLE stay_events ON COMMIT DROP AS
    SELECT serial, at, id, 'start' AS kind, site_id, model_id, 1 AS step FROM install_audit
      WHERE action IN ('installed', 'replaced') AND serial IS NOT NULL
    UNION ALL SELECT serial, at, id, 'end', from_site_id, model_id, 0 FROM install_audit
      WHERE action = 'moved' AND serial IS NOT NULL
    UNION ALL SELECT serial, at, id, 'start', site_id, model_id, 1 FROM install_audit
      WHERE action = 'moved' AND serial IS NOT NULL
    UNION ALL SELECT serial, at, id, 'end', site_id, model_id, 0 FROM install_audit
      WHERE action = 'removed' AND serial IS NOT NULL
    UNION ALL SELECT other_serial, at, id, 'end', site_id, model_id, 0 FROM install_audit
      WHERE action = 'replaced' AND other_serial IS NOT NULL;

  DO $$
  DECLARE
    e record;
    open_id integer;
    open_serial text;
  BEGIN
    FOR e IN SELECT * FROM stay_events ORDER BY serial, at, id, step LOOP
      IF open_serial IS DISTINCT FROM e.serial THEN
        open_id := NULL;
        open_serial := e.serial;
      END IF;
      IF e.kind = 'start' THEN
        IF open_id IS NOT NULL THEN
          UPDATE installations SET ended_at = e.at WHERE id = open_id;
        END IF;
        INSERT INTO installations (serial, model_id, site_id, device_id, started_at)
          VALUES (e.serial, coalesce(e.model_id, ''), e.site_id, 0, e.at) RETURNING id INTO open_id;
      ELSE
        IF open_id IS NULL THEN
          -- On a site since before the audit began (seeded): a stay from the site's creation, or
          -- the serial's first record if that is older.
          INSERT INTO installations (serial, model_id, site_id, device_id, started_at, ended_at)
            VALUES (e.serial, coalesce(e.model_id, ''), e.site_id, 0, least(e.at,
              (SELECT created_at FROM sites WHERE id = e.site_id),
              (SELECT min(received_at) FROM config_history WHERE serial = e.serial)), e.at);
        ELSE
          UPDATE installations SET ended_at = e.at WHERE id = open_id;
          open_id := NULL;
        END IF;
      END IF;
    END LOOP;
  END $$;

  -- Devices on a site whose stay the audit does not show (seeded, never changed since), or does
  -- not show ending where the device is now.
  UPDATE installations i SET ended_at = now()
    FROM devices d WHERE d.serial = i.serial AND i.ended_at IS NULL AND i.site_id <> d.site_id;
  INSERT INTO installations (serial, model_id, site_id, device_id, started_at)
    SELECT d.serial, d.model_id, d.site_id, d.id, d.installed_at FROM devices d
    WHERE NOT EXISTS (SELECT 1 FROM installations i WHERE i.serial = d.serial AND i.ended_at IS NULL);
  UPDATE installations i SET device_id = d.id, model_id = d.model_id
    FROM devices d WHERE d.serial = i.serial AND i.ended_at IS NULL;
  -- Stays still open for a serial that is on no site (the audit missed its end): ended now.
  UPDATE installations i SET ended_at = now()
    WHERE i.ended_at IS NULL AND NOT EXISTS (SELECT 1 FROM devices d WHERE d.serial = i.serial);
  -- A devices row lives from its install through its moves to its retirement: an ended stay's
  -- row is the first one retired when or after it ended, else the one on a site now.
  UPDATE installations i SET device_id = coalesce(
    (SELECT r.device_id FROM retired_devices r WHERE r.serial = i.serial AND r.retired_at >= i.ended_at
       ORDER BY r.retired_at, r.id LIMIT 1),
    (SELECT d.id FROM devices d WHERE d.serial = i.serial), 0)
    WHERE i.ended_at IS NOT NULL;

  CREATE UNIQUE INDEX installations_current_serial_key ON installations (serial) WHERE ended_at IS NULL;
  CREATE UNIQUE INDEX installations_current_device_key ON installations (device_id) WHERE ended_at IS NULL;
  CREATE INDEX installations_serial_idx ON installations (serial, started_at DESC, id DESC);
  -- What a caller sees of a device's telemetry and alarms starts after its stays elsewhere.
  CREATE INDEX installations_device_idx ON installations (device_id, ended_at);

  -- Each record to the stay of its serial that held the device when it came in; a record from
  -- before every known stay to the first one.
  UPDATE config_history h SET installation_id = coalesce(
    (SELECT i.id FROM installations i WHERE i.serial = h.serial AND i.started_at <= h.received_at
       AND (i.ended_at IS NULL OR h.received_at <= i.ended_at) ORDER BY i.started_at DESC, i.id DESC LIMIT 1),
    (SELECT i.id FROM installations i WHERE i.serial = h.serial ORDER BY i.started_at, i.id LIMIT 1));
  UPDATE install_audit a SET installation_id = coalesce(
    (SELECT i.id FROM installations i WHERE i.serial = a.serial AND i.started_at <= a.at
       AND (i.ended_at IS NULL OR a.at <= i.ended_at) ORDER BY i.started_at DESC, i.id DESC LIMIT 1),
    (SELECT i.id FROM installations i WHERE i.serial = a.serial ORDER BY i.started_at, i.id LIMIT 1))
    WHERE a.serial IS NOT NULL;
  CREATE INDEX config_history_installation_idx ON config_history (installation_id, seq DESC);
  CREATE INDEX install_audit_installation_idx ON install_audit (installation_id, id DESC);

  -- From now on the database keeps them.
  CREATE FUNCTION installations_begin() RETURNS trigger AS $$
  BEGIN
    INSERT INTO installations (serial, model_id, site_id, device_id, started_at)
      SELECT serial, model_id, site_id, id, installed_at FROM new_rows;
    RETURN NULL;
  END $$ LANGUAGE plpgsql;

  CREATE FUNCTION installations_move() RETURNS trigger AS $$
  BEGIN
    UPDATE installations i SET ended_at = now()
      FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE i.device_id = o.id AND i.ended_at IS NULL AND n.site_id <> o.site_id;
    INSERT INTO installations (serial, model_id, site_id, device_id, started_at)
      SELECT n.serial, n.model_id, n.site_id, n.id, now()
      FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE n.site_id <> o.site_id;
    RETURN NULL;
  END $$ LANGUAGE plpgsql;

  CREATE FUNCTION installations_end() RETURNS trigger AS $$
  BEGIN
    UPDATE installations i SET ended_at = now()
      FROM old_rows o WHERE i.device_id = o.id AND i.ended_at IS NULL;
    RETURN NULL;
  END $$ LANGUAGE plpgsql;

  CREATE TRIGGER installations_begin AFTER INSERT ON devices
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION installations_begin();
  CREATE TRIGGER installations_move AFTER UPDATE ON devices
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION installations_move();
  CREATE TRIGGER installations_end AFTER DELETE ON devices
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION installations_end();

  -- A record belongs to the stay of its serial at the moment it is written: the current one, or
  -- (a removal recorded after its device left) the one that just ended.
  CREATE FUNCTION stamp_installation() RETURNS trigger AS $$
  BEGIN
    IF NEW.installation_id IS NULL AND NEW.serial IS NOT NULL THEN
      NEW.installation_id := (SELECT id FROM installations WHERE serial = NEW.serial
        ORDER BY ended_at IS NULL DESC, started_at DESC, id DESC LIMIT 1);
    END IF;
    RETURN NEW;
  END $$ LANGUAGE plpgsql;

  CREATE TRIGGER config_history_installation BEFORE INSERT ON config_history
    FOR EACH ROW EXECUTE FUNCTION stamp_installation();
  CREATE TRIGGER install_audit_installation BEFORE INSERT ON install_audit
    FOR EACH ROW EXECUTE FUNCTION stamp_installation();
`;
