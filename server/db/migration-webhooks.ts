/**
 * Migration 24: webhooks. `webhook_endpoints` are a person's subscriptions (a URL, events, maybe
 * one site); the signing secret is kept sealed (AES-256-GCM under a key derived from
 * `CODE_HMAC_KEY`), since the server must sign with it and a database dump must not reveal it.
 * `webhook_events` is what happened, written in the transaction that made it happen; the sender
 * fans each event out to the endpoints whose owner sees its site then (`webhook_deliveries`, the
 * outbox: one row per event and endpoint, with its `webhook-id`, claimed with a lease, retried
 * with backoff), and records every try in `webhook_attempts`.
 */
export const WEBHOOKS_SQL = `
  CREATE TABLE webhook_endpoints (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    url text NOT NULL CHECK (length(url) BETWEEN 1 AND 2000),
    events text[] NOT NULL CHECK (cardinality(events) > 0),
    site_id integer REFERENCES sites(id) ON DELETE CASCADE,
    secret_sealed text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    disabled_at timestamptz,
    disabled_reason text,
    failing_since timestamptz
  );
  CREATE INDEX webhook_endpoints_user ON webhook_endpoints (user_id, created_at DESC);

  CREATE TABLE webhook_events (
    id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    type text NOT NULL,
    site_id integer,
    data jsonb NOT NULL,
    at timestamptz NOT NULL DEFAULT now(),
    fanned_out boolean NOT NULL DEFAULT false
  );
  CREATE INDEX webhook_events_waiting ON webhook_events (id) WHERE NOT fanned_out;

  CREATE TABLE webhook_deliveries (
    id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    endpoint_id uuid NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
    message_id text NOT NULL UNIQUE,
    type text NOT NULL,
    body text NOT NULL,
    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'delivered', 'failed')),
    attempts integer NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now(),
    first_attempt_at timestamptz,
    next_attempt_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX webhook_deliveries_open ON webhook_deliveries (endpoint_id, id)
    WHERE status IN ('pending', 'sending');
  CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, id DESC);

  CREATE TABLE webhook_attempts (
    id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    delivery_id integer NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
    at timestamptz NOT NULL,
    status integer,
    duration_ms integer NOT NULL,
    response text,
    error text
  );
  CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, id);
`;
