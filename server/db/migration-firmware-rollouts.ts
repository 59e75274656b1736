/**
 * Migration 26: firmware rollouts. `firmware_rollouts` is one image sent to a set of devices in
 * waves (a canary first), with its failure limit and state; `firmware_rollout_devices` holds each
 * device's turn (its wave) and how far it got, so that a restarted server goes on where it was;
 * `firmware_rollout_events` is the audit of every step (who paused, which device reverted, …).
 */
export const FIRMWARE_ROLLOUTS_SQL = `
  CREATE TABLE firmware_rollouts (
    id serial PRIMARY KEY,
    firmware_id integer NOT NULL REFERENCES firmware_images (id),
    state text NOT NULL CHECK (state IN ('running', 'paused', 'stopped', 'done', 'cancelled')),
    canary integer NOT NULL CHECK (canary >= 1),
    wave_size integer NOT NULL CHECK (wave_size >= 1),
    max_failures integer NOT NULL CHECK (max_failures >= 0),
    created_by integer REFERENCES users (id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX firmware_rollouts_live_idx ON firmware_rollouts (id) WHERE state IN ('running', 'paused');
  CREATE TABLE firmware_rollout_devices (
    rollout_id integer NOT NULL REFERENCES firmware_rollouts (id) ON DELETE CASCADE,
    device_id integer NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
    serial text NOT NULL,
    position integer NOT NULL,
    wave integer NOT NULL,
    state text NOT NULL CHECK (state IN
      ('queued', 'uploading', 'testing', 'confirmed', 'reverted', 'failed', 'offline')),
    version text,
    reason text,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (rollout_id, device_id)
  );
  CREATE INDEX firmware_rollout_devices_serial_idx ON firmware_rollout_devices (serial, state);
  CREATE TABLE firmware_rollout_events (
    id serial PRIMARY KEY,
    rollout_id integer NOT NULL REFERENCES firmware_rollouts (id) ON DELETE CASCADE,
    serial text,
    user_id integer REFERENCES users (id) ON DELETE SET NULL,
    event text NOT NULL,
    detail text,
    at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX firmware_rollout_events_idx ON firmware_rollout_events (rollout_id, id);
`;

/**
 * Migration 27: a rollout's window. A device offline at its turn is updated when it comes back until
 * `window_ends_at`; devices still offline then are left out, and the rollout can end. The default is
 * ROLLOUT_WINDOW_HOURS from the start (rollouts from before: from when they were made).
 */
export const ROLLOUT_WINDOW_SQL = `
  ALTER TABLE firmware_rollouts ADD COLUMN window_ends_at timestamptz NOT NULL DEFAULT now() + interval '24 hours';
  UPDATE firmware_rollouts SET window_ends_at = created_at + interval '24 hours';
`;
