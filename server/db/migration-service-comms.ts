/**
 * Devices online (DESIGN.md §10): each device's secret (only its SHA-256: the secret is 32 random
 * bytes, not a password), which server process holds each connected device's socket, and the log
 * of commands sent to devices with who sent them.
 */
export const SERVICE_COMMS_SQL = `
  CREATE TABLE device_secrets (
    device_id integer PRIMARY KEY REFERENCES devices(id) ON DELETE CASCADE,
    secret_hash text NOT NULL,
    issued_at timestamptz NOT NULL DEFAULT now()
  );
  -- One row per connected device. holder names the server process holding the socket; seen_at is
  -- refreshed by that process while it lives, so a process that died leaves rows that go stale.
  CREATE TABLE device_presence (
    serial text PRIMARY KEY,
    device_id integer NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
    model_id text NOT NULL,
    holder text NOT NULL,
    connected_at timestamptz NOT NULL DEFAULT now(),
    seen_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX device_presence_holder_idx ON device_presence (holder);
  CREATE TABLE device_command_log (
    id serial PRIMARY KEY,
    device_id integer NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
    serial text NOT NULL,
    user_id integer NOT NULL,
    user_email text NOT NULL,
    command smallint[] NOT NULL,
    answer smallint[],
    outcome text NOT NULL,
    sent_at timestamptz NOT NULL,
    answered_at timestamptz
  );
  CREATE INDEX device_command_log_device_idx ON device_command_log (device_id, id DESC);
`;
