/**
 * Migration 17: silence raises alarms for every device and for whole sites.
 *
 * - `alarms.site_id`: a site's own alarm (every device at the site silent) has a site and no
 *   device; a device's alarm has a device and takes its site from it. Exactly one of the two is
 *   set. At most one alarm per site and rule is open, as per device and rule.
 * - `alarm_watch`: one row, kept by whichever process looks for silent devices: since when the
 *   service has been watching without a break (`watching_since`) and when it last looked
 *   (`checked_at`). A device's silence counts from its last reading or its install, but never from
 *   before the service was watching: after an outage of the whole service, devices get the full
 *   `ALARM_OFFLINE_AFTER_S` to report again, however many processes there are.
 */
export const SILENCE_ALARMS_SQL = `
  ALTER TABLE alarms ALTER COLUMN device_id DROP NOT NULL;
  ALTER TABLE alarms ADD COLUMN site_id integer REFERENCES sites(id) ON DELETE CASCADE;
  ALTER TABLE alarms ADD CONSTRAINT alarms_device_or_site CHECK ((device_id IS NULL) <> (site_id IS NULL));
  CREATE UNIQUE INDEX alarms_open_site_key ON alarms (site_id, rule) WHERE device_id IS NULL AND state <> 'cleared';
  CREATE INDEX alarms_site_idx ON alarms (site_id, raised_at DESC) WHERE site_id IS NOT NULL;

  CREATE TABLE alarm_watch (
    id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    watching_since timestamptz NOT NULL,
    checked_at timestamptz NOT NULL
  );
`;
