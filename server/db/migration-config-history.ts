/**
 * Configuration history: one row per verified Bluetooth write, with what changed. The id is made by
 * the app, so a record sent twice from its offline queue is stored once. Read per serial, newest first.
 */
export const CONFIG_HISTORY_SQL = `
  CREATE TABLE config_history (
    id uuid PRIMARY KEY,
    serial text NOT NULL,
    user_id integer REFERENCES users(id) ON DELETE SET NULL,
    user_email text NOT NULL,
    transport text NOT NULL CHECK (transport IN ('web-bluetooth', 'simulated')),
    written_at timestamptz NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now(),
    changes jsonb NOT NULL
  );
  CREATE INDEX config_history_serial_idx ON config_history (serial, written_at DESC, id);
`;
