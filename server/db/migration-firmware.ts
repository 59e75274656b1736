/**
 * Migration 23: firmware images. `firmware_blobs` holds each image's bytes once, by SHA-256 (hex);
 * `firmware_images` names one uploaded image: its model and version (one upload of a version per
 * model), its channel, who uploaded it and when. `devices.firmware_version` is what the device
 * said in its last hello on the device socket (null until it says).
 */
export const FIRMWARE_SQL = `
  CREATE TABLE firmware_blobs (
    sha256 text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    size integer NOT NULL CHECK (size > 0),
    bytes bytea NOT NULL
  );
  CREATE TABLE firmware_images (
    id serial PRIMARY KEY,
    model_id text NOT NULL,
    version text NOT NULL,
    sha256 text NOT NULL REFERENCES firmware_blobs (sha256),
    size integer NOT NULL,
    channel text NOT NULL CHECK (channel IN ('stable', 'beta')),
    uploaded_by integer REFERENCES users (id) ON DELETE SET NULL,
    uploaded_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (model_id, version)
  );
  ALTER TABLE devices ADD COLUMN firmware_version text;
`;
