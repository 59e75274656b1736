/**
 * Migration 22: API keys. A key is stored only as HMAC-SHA-256 of its text under the key kept
 * outside the database (`CODE_HMAC_KEY`), so a database dump holds nothing a caller can send.
 * Each key carries its own token bucket (`bucket_tokens` at `bucket_at`), so every process
 * counts against the same limit. `api_key_addresses` holds the addresses a key was used from
 * (a new one is audited); `api_key_audit` records a key's creation, a new address and its
 * revocation, and outlives the key.
 */
export const API_KEYS_SQL = `
  CREATE TABLE api_keys (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name text NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
    scope text NOT NULL CHECK (scope IN ('read', 'write')),
    secret_hmac text NOT NULL UNIQUE CHECK (secret_hmac ~ '^[0-9a-f]{64}$'),
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz,
    revoked_at timestamptz,
    last_used_at timestamptz,
    last_used_address text,
    bucket_tokens double precision NOT NULL,
    bucket_at timestamptz NOT NULL DEFAULT now(),
    bucket_allowed boolean NOT NULL DEFAULT true
  );
  CREATE INDEX api_keys_user ON api_keys (user_id, created_at DESC);

  CREATE TABLE api_key_addresses (
    key_id uuid NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
    address text NOT NULL,
    first_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (key_id, address)
  );

  CREATE TABLE api_key_audit (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at timestamptz NOT NULL DEFAULT now(),
    key_id uuid NOT NULL,
    key_name text NOT NULL,
    user_id integer NOT NULL,
    action text NOT NULL CHECK (action IN ('created', 'new-address', 'revoked')),
    address text
  );
  CREATE INDEX api_key_audit_user ON api_key_audit (user_id, at DESC);
`;
