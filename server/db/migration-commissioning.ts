/**
 * Migration 11, commissioning: devices put on, moved between and taken off sites, and sites
 * archived, each change recorded; settings templates; the template a recorded write applied and
 * writes the service made over service-comms; mail attachments (the commissioning report).
 *
 * An archived site and a device taken off its site leave `sites` and `devices` for tables of
 * their own, so every list, count, trigger and cached page that reads those tables is right
 * without knowing about archiving; a staff member's restore puts the site back with its id.
 */
export const COMMISSIONING_SQL = `
  CREATE TABLE archived_sites (
    id integer PRIMARY KEY,
    -- The site's row and its access rows as they were, to restore them as they were.
    site jsonb NOT NULL,
    access jsonb NOT NULL,
    archived_at timestamptz NOT NULL DEFAULT now(),
    archived_by integer REFERENCES users(id) ON DELETE SET NULL,
    archived_by_email text NOT NULL
  );
  CREATE TABLE retired_devices (
    id serial PRIMARY KEY,
    device_id integer NOT NULL,
    serial text NOT NULL,
    model_id text NOT NULL,
    name text NOT NULL,
    site_id integer NOT NULL,
    site_name text NOT NULL,
    installed_at timestamptz NOT NULL,
    retired_at timestamptz NOT NULL DEFAULT now(),
    retired_by integer REFERENCES users(id) ON DELETE SET NULL,
    reason text NOT NULL CHECK (reason IN ('removed', 'replaced')),
    replaced_by text
  );
  CREATE INDEX retired_devices_serial_idx ON retired_devices (serial, id DESC);
  CREATE TABLE install_audit (
    id bigserial PRIMARY KEY,
    at timestamptz NOT NULL DEFAULT now(),
    user_id integer REFERENCES users(id) ON DELETE SET NULL,
    user_email text NOT NULL,
    action text NOT NULL CHECK (action IN
      ('installed', 'moved', 'renamed', 'replaced', 'removed', 'site_archived', 'site_restored')),
    site_id integer NOT NULL,
    site_name text NOT NULL,
    from_site_id integer,
    from_site_name text,
    serial text,
    model_id text,
    old_name text,
    new_name text,
    other_serial text
  );
  CREATE INDEX install_audit_site_idx ON install_audit (site_id, id DESC);
  CREATE INDEX install_audit_from_site_idx ON install_audit (from_site_id, id DESC) WHERE from_site_id IS NOT NULL;
  CREATE INDEX install_audit_serial_idx ON install_audit (serial, id DESC) WHERE serial IS NOT NULL;
  CREATE INDEX install_audit_other_serial_idx ON install_audit (other_serial, id DESC) WHERE other_serial IS NOT NULL;

  CREATE TABLE config_templates (
    id serial PRIMARY KEY,
    -- Who shares it: the creator's company as docs/api.md defines it (an e-mail domain, or one
    -- person's address for a public mail provider).
    company text NOT NULL,
    name text NOT NULL,
    model_id text NOT NULL,
    settings jsonb NOT NULL,
    created_by integer REFERENCES users(id) ON DELETE SET NULL,
    created_by_email text NOT NULL,
    updated_by_email text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE UNIQUE INDEX config_templates_name_key ON config_templates (company, model_id, lower(name));

  ALTER TABLE config_history ADD COLUMN template_name text;
  ALTER TABLE config_history DROP CONSTRAINT config_history_transport_check;
  ALTER TABLE config_history ADD CONSTRAINT config_history_transport_check
    CHECK (transport IN ('web-bluetooth', 'simulated', 'service-comms'));

  CREATE TABLE outbox_attachments (
    id serial PRIMARY KEY,
    outbox_id integer NOT NULL REFERENCES outbox(id) ON DELETE CASCADE,
    filename text NOT NULL,
    content_type text NOT NULL,
    content bytea NOT NULL
  );
  CREATE INDEX outbox_attachments_outbox_idx ON outbox_attachments (outbox_id);
`;
