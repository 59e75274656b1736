/**
 * Migration 10: telemetry, rollups and alarms (docs/api.md, "Monitoring").
 *
 * - `telemetry_raw`: one row per stored reading, partitioned by day on the device's time. The
 *   partitions are made ahead and dropped whole after `TELEMETRY_RAW_DAYS` by
 *   `server/monitoring/telemetry/partitions.ts`, never emptied with DELETE. No foreign key: it is
 *   the hot path, and a reading outlives its device by at most the days raw readings are kept.
 * - `telemetry_5m` (partitioned by month, kept 400 days; one row per device and step, the metrics
 *   side by side in arrays) and `telemetry_1h`, `telemetry_1d` (one row per device, metric and
 *   step): the count, sum, least, greatest and newest value of each step, and for energy
 *   counters their increase. 5-minute steps are merged as readings arrive (any arrival order);
 *   a step is added to its hour and its day once it is over (`folded`), and a reading that comes
 *   later to a folded step goes to all three. `telemetry_1h` (partitioned by month, kept 400 days)
 *   is what a month's chart reads: 720 rows where the 5-minute steps are 8,640, scattered over
 *   as many pages.
 * - `telemetry_latest`: each device's newest reading, for the latest call, the live stream's first
 *   event and the offline check.
 * - `telemetry_counts`: what was stored, refused or marked, per day and kind.
 * - `alarms`, `alarm_transitions`: each alarm and every state it entered, with when and who. At
 *   most one alarm per device and rule is open (not cleared): the unique index is what makes one
 *   process, and one only, raise it. One transition row per state and alarm: one mail each.
 * - `users.alarm_mail`: the user's opt-in to alarm mail for the sites they have access to.
 */
export const MONITORING_SQL = `
  ALTER TABLE users ADD COLUMN alarm_mail boolean NOT NULL DEFAULT false;

  CREATE TABLE telemetry_raw (
    device_id integer NOT NULL,
    device_time timestamptz NOT NULL,
    received_at timestamptz NOT NULL,
    flags smallint NOT NULL DEFAULT 0,
    vals jsonb NOT NULL,
    PRIMARY KEY (device_id, device_time)
  ) PARTITION BY RANGE (device_time);

  -- A device's 5-minute step, every metric of its product side by side: arrays in the order of
  -- metrics, so that a reading is one row to merge, not one per metric.
  CREATE TABLE telemetry_5m (
    device_id integer NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
    bucket timestamptz NOT NULL,
    metrics text[] NOT NULL,
    n integer[] NOT NULL,
    total double precision[] NOT NULL,
    min double precision[] NOT NULL,
    max double precision[] NOT NULL,
    last double precision[] NOT NULL,
    last_at timestamptz[] NOT NULL,
    increase double precision[] NOT NULL,
    folded boolean NOT NULL DEFAULT false,
    PRIMARY KEY (device_id, bucket, metrics)
  ) PARTITION BY RANGE (bucket);
  -- The steps not yet added to their hour and day (server/monitoring/telemetry/rollup-fold.ts).
  CREATE INDEX telemetry_5m_unfolded_idx ON telemetry_5m (bucket) WHERE NOT folded;

  -- Merging two steps' arrays element by element (a NULL element: no value yet).
  CREATE FUNCTION telemetry_add(a double precision[], b double precision[]) RETURNS double precision[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
    $$ SELECT array_agg(CASE WHEN x IS NULL THEN y WHEN y IS NULL THEN x ELSE x + y END ORDER BY i)
       FROM unnest(a, b) WITH ORDINALITY AS u(x, y, i) $$;
  CREATE FUNCTION telemetry_add_counts(a integer[], b integer[]) RETURNS integer[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
    $$ SELECT array_agg(coalesce(x, 0) + coalesce(y, 0) ORDER BY i) FROM unnest(a, b) WITH ORDINALITY AS u(x, y, i) $$;
  CREATE FUNCTION telemetry_least(a double precision[], b double precision[]) RETURNS double precision[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
    $$ SELECT array_agg(LEAST(x, y) ORDER BY i) FROM unnest(a, b) WITH ORDINALITY AS u(x, y, i) $$;
  CREATE FUNCTION telemetry_greatest(a double precision[], b double precision[]) RETURNS double precision[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
    $$ SELECT array_agg(GREATEST(x, y) ORDER BY i) FROM unnest(a, b) WITH ORDINALITY AS u(x, y, i) $$;
  CREATE FUNCTION telemetry_greatest_at(a timestamptz[], b timestamptz[]) RETURNS timestamptz[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
    $$ SELECT array_agg(GREATEST(x, y) ORDER BY i) FROM unnest(a, b) WITH ORDINALITY AS u(x, y, i) $$;
  CREATE FUNCTION telemetry_newest(a double precision[], a_at timestamptz[], b double precision[], b_at timestamptz[])
    RETURNS double precision[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
    $$ SELECT array_agg(CASE WHEN yt IS NOT NULL AND (xt IS NULL OR yt > xt) THEN y ELSE x END ORDER BY i)
       FROM unnest(a, a_at, b, b_at) WITH ORDINALITY AS u(x, xt, y, yt, i) $$;

  CREATE TABLE telemetry_1h (
    device_id integer NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
    metric text NOT NULL,
    hour timestamptz NOT NULL,
    n integer NOT NULL,
    total double precision NOT NULL,
    min double precision,
    max double precision,
    last double precision,
    last_at timestamptz,
    increase double precision,
    PRIMARY KEY (device_id, metric, hour)
  ) PARTITION BY RANGE (hour);

  CREATE TABLE telemetry_1d (
    device_id integer NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
    metric text NOT NULL,
    day date NOT NULL,
    n integer NOT NULL,
    total double precision NOT NULL,
    min double precision,
    max double precision,
    last double precision,
    last_at timestamptz,
    increase double precision,
    PRIMARY KEY (device_id, metric, day)
  ) WITH (fillfactor = 80);

  CREATE TABLE telemetry_latest (
    device_id integer PRIMARY KEY REFERENCES devices(id) ON DELETE CASCADE,
    device_time timestamptz NOT NULL,
    received_at timestamptz NOT NULL,
    flags smallint NOT NULL DEFAULT 0,
    vals jsonb NOT NULL
  ) WITH (fillfactor = 70);

  CREATE TABLE telemetry_counts (
    day date NOT NULL,
    kind text NOT NULL,
    count bigint NOT NULL,
    PRIMARY KEY (day, kind)
  );

  CREATE TABLE alarms (
    id serial PRIMARY KEY,
    device_id integer NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
    rule text NOT NULL,
    kind text NOT NULL CHECK (kind IN ('offline', 'status', 'threshold')),
    severity text NOT NULL CHECK (severity IN ('info', 'warning', 'critical')),
    message text NOT NULL,
    value double precision,
    state text NOT NULL CHECK (state IN ('active', 'acknowledged', 'cleared')),
    raised_at timestamptz NOT NULL,
    acknowledged_at timestamptz,
    acknowledged_by integer REFERENCES users(id) ON DELETE SET NULL,
    ack_note text,
    cleared_at timestamptz
  );
  CREATE UNIQUE INDEX alarms_open_key ON alarms (device_id, rule) WHERE state <> 'cleared';
  CREATE INDEX alarms_device_idx ON alarms (device_id, raised_at DESC);
  CREATE INDEX alarms_raised_idx ON alarms (raised_at DESC, id DESC);

  CREATE TABLE alarm_transitions (
    alarm_id integer NOT NULL REFERENCES alarms(id) ON DELETE CASCADE,
    state text NOT NULL CHECK (state IN ('active', 'acknowledged', 'cleared')),
    at timestamptz NOT NULL,
    user_id integer REFERENCES users(id) ON DELETE SET NULL,
    note text,
    PRIMARY KEY (alarm_id, state)
  );
`;
