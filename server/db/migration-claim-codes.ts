/**
 * Migration 21: claim codes. `device_registrations` holds what a manufacturing list says of each
 * serial (`npm run devices:register`): its model and the SHA-256 of its claim code, never the
 * code. `devices.claimed_at` says when a device was claimed for its site with that code (null for
 * one put on a site by serial alone, as before claim codes); a claimed device that never spoke
 * says how long ago that was.
 */
export const CLAIM_CODES_SQL = `
  CREATE TABLE device_registrations (
    serial text PRIMARY KEY,
    model_id text NOT NULL,
    claim_code_hash text NOT NULL CHECK (claim_code_hash ~ '^[0-9a-f]{64}$'),
    registered_at timestamptz NOT NULL DEFAULT now()
  );
  ALTER TABLE devices ADD COLUMN claimed_at timestamptz;
`;
