import type { ColumnType, Generated } from 'kysely';
import type { CompanyRole } from '../../contracts/companies.ts';
import type { UserRole } from '../../contracts/users.ts';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type DefaultNow = ColumnType<Date, Date | string | undefined, Date | string>;

/** Table shapes as Kysely sees them; the SQL lives in `migrations.ts`. */
export interface Database {
  users: {
    id: Generated<number>;
    main_email: string;
    display_name: string;
    phone: string | null;
    role: UserRole;
    password_hash: string | null;
    created_by: number | null;
    /** Access tokens issued before this no longer pass; null when no session was ever ended. */
    sessions_valid_after: Date | null;
    /** Mail me the alarms of the sites I have access to. */
    alarm_mail: Generated<boolean>;
    created_at: CreatedAt;
    updated_at: Generated<Date>;
  };
  user_installers: { user_id: number; installer_id: number };
  /** API keys (migration 22): the key itself is never stored, only its HMAC. */
  api_keys: {
    id: Generated<string>;
    user_id: number;
    name: string;
    scope: 'read' | 'write';
    secret_hmac: string;
    created_at: CreatedAt;
    expires_at: Date | null;
    revoked_at: Date | null;
    last_used_at: Date | null;
    last_used_address: string | null;
    bucket_tokens: number;
    bucket_at: DefaultNow;
    bucket_allowed: Generated<boolean>;
  };
  api_key_addresses: { key_id: string; address: string; first_at: DefaultNow };
  api_key_audit: {
    id: Generated<string>;
    at: DefaultNow;
    key_id: string;
    key_name: string;
    user_id: number;
    action: 'created' | 'new-address' | 'revoked';
    address: string | null;
  };
  /** Webhooks (migration 24): a person's endpoints, with the signing secret sealed. */
  webhook_endpoints: {
    id: Generated<string>;
    user_id: number;
    url: string;
    events: string[];
    site_id: number | null;
    secret_sealed: string;
    created_at: CreatedAt;
    disabled_at: Date | null;
    disabled_reason: string | null;
    failing_since: Date | null;
  };
  /** What happened, for the endpoints that subscribe to it; fanned out by the sender. */
  webhook_events: {
    id: Generated<number>;
    type: string;
    site_id: number | null;
    data: ColumnType<unknown, string, string>;
    at: DefaultNow;
    fanned_out: Generated<boolean>;
  };
  /** The outbox: one event for one endpoint; `message_id` is its `webhook-id` on every try. */
  webhook_deliveries: {
    id: Generated<number>;
    endpoint_id: string;
    message_id: string;
    type: string;
    body: string;
    status: Generated<'pending' | 'sending' | 'delivered' | 'failed'>;
    attempts: Generated<number>;
    created_at: CreatedAt;
    first_attempt_at: Date | null;
    next_attempt_at: DefaultNow;
  };
  webhook_attempts: {
    id: Generated<number>;
    delivery_id: number;
    at: Timestamp;
    status: number | null;
    duration_ms: number;
    response: string | null;
    error: string | null;
  };
  sites: {
    id: Generated<number>;
    name: string;
    display_address: string;
    street_number: string;
    street_name: string;
    postal_code: string;
    locality: string;
    state: string;
    country: string;
    latitude: number;
    longitude: number;
    place_id: string | null;
    /** The IANA zone whose midnight starts the site's days. */
    time_zone: string;
    owner_id: number | null;
    installer_id: number | null;
    /** The installer company the site belongs to (migration 19); null for one made by staff. */
    company_id: Generated<number | null>;
    device_count: Generated<number>;
    created_at: CreatedAt;
    updated_at: Generated<Date>;
  };
  site_access: {
    site_id: number;
    user_id: number;
    roles: string[];
    access: boolean;
    /** Held because the user runs the site's company (an admin of it), not given on the site. */
    by_company: Generated<boolean>;
  };
  devices: {
    id: Generated<number>;
    model_id: string;
    serial: string;
    name: string;
    site_id: number;
    /** When it was put on its site (a move puts it on another). */
    installed_at: DefaultNow;
    /** When it was claimed for its site with its claim code; null when put on by serial alone. */
    claimed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
    /** What the device said in its last hello (`1.2.0`, `1.2.0+7`); null until it says. */
    firmware_version: ColumnType<string | null, string | null | undefined, string | null>;
  };
  /** Firmware image bytes, once each, by SHA-256 (hex). */
  firmware_blobs: {
    sha256: string;
    size: number;
    bytes: Uint8Array;
  };
  /** An uploaded firmware image: one per model and version. */
  firmware_images: {
    id: Generated<number>;
    model_id: string;
    version: string;
    sha256: string;
    size: number;
    channel: string;
    uploaded_by: number | null;
    uploaded_at: DefaultNow;
  };
  /** One image sent to a set of devices in waves. */
  firmware_rollouts: {
    id: Generated<number>;
    firmware_id: number;
    state: 'running' | 'paused' | 'stopped' | 'done' | 'cancelled';
    canary: number;
    wave_size: number;
    max_failures: number;
    /** Devices offline at their turn are updated when they come back until then (migration 27). */
    window_ends_at: Generated<Date>;
    created_by: number | null;
    created_at: DefaultNow;
    updated_at: DefaultNow;
  };
  /** A device of a rollout: its turn (wave) and how far it got. */
  firmware_rollout_devices: {
    rollout_id: number;
    device_id: number;
    serial: string;
    position: number;
    wave: number;
    state: 'queued' | 'uploading' | 'testing' | 'confirmed' | 'reverted' | 'failed' | 'offline';
    version: string | null;
    reason: string | null;
    updated_at: DefaultNow;
  };
  /** The audit of a rollout: every step, by whom (a person, or null for the rollout itself). */
  firmware_rollout_events: {
    id: Generated<number>;
    rollout_id: number;
    serial: string | null;
    user_id: number | null;
    event: string;
    detail: string | null;
    at: DefaultNow;
  };
  /** A manufacturing list's serials: model and claim-code hash (SHA-256, hex). */
  device_registrations: {
    serial: string;
    model_id: string;
    claim_code_hash: string;
    registered_at: DefaultNow;
  };
  refresh_tokens: {
    id: Generated<number>;
    token_hash: string;
    family_id: string;
    user_id: number;
    service: 'config' | 'monitoring';
    expires_at: Timestamp;
    used_at: Date | null;
    revoked_at: Date | null;
    /** The successor handed out when this token was spent, sealed (see refresh-tokens.ts). */
    successor_sealed: string | null;
    created_at: CreatedAt;
  };
  one_time_codes: {
    id: Generated<number>;
    user_id: number;
    purpose: 'reset' | 'access';
    code_hash: string;
    expires_at: Timestamp;
    used_at: Date | null;
    created_at: CreatedAt;
  };
  rate_limits: {
    key: string;
    window_start: Timestamp;
    hits: number;
  };
  list_counts: {
    user_id: number;
    sites: number;
    devices: number;
    version: number;
  };
  outbox: {
    id: Generated<number>;
    to_address: string;
    subject: string;
    /** The text; a one-time code stands as `{code}` and is created only when sent. */
    body: string;
    sent_at: Date | null;
    created_at: CreatedAt;
    status: Generated<'pending' | 'sending' | 'sent' | 'failed'>;
    attempts: Generated<number>;
    next_attempt_at: Generated<Date>;
    last_error: string | null;
    code_user_id: number | null;
    code_purpose: 'reset' | 'access' | null;
  };
  device_secrets: {
    device_id: number;
    /** SHA-256 (hex) of the device's secret. */
    secret_hash: string;
    issued_at: ColumnType<Date, Date | string | undefined, Date | string>;
  };
  device_presence: {
    serial: string;
    device_id: number;
    model_id: string;
    /** The server process holding the device's socket. */
    holder: string;
    connected_at: ColumnType<Date, Date | string | undefined, Date | string>;
    seen_at: ColumnType<Date, Date | string | undefined, Date | string>;
  };
  device_command_log: {
    id: Generated<number>;
    device_id: number;
    serial: string;
    user_id: number;
    user_email: string;
    command: number[];
    answer: number[] | null;
    /** `answered`, `device_offline` or `device_timeout`. */
    outcome: string;
    sent_at: Timestamp;
    answered_at: Timestamp | null;
  };
  /** What verified writes changed (written with raw SQL by the history routes; read typed here). */
  config_history: {
    id: string;
    serial: string;
    user_id: number | null;
    user_email: string;
    transport: 'web-bluetooth' | 'simulated' | 'service-comms';
    template_name: string | null;
    written_at: Timestamp;
    received_at: DefaultNow;
    /** Its place in the order received (migration 10). */
    seq: Generated<string>;
    /** The installation it was written in (migration 15); null for a serial on no site then. */
    installation_id: Generated<number | null>;
    changes: ColumnType<
      { field: string; label: string; oldValue: string; newValue: string }[],
      string,
      string
    >;
  };
  /** Sites archived by `DELETE /sites/{id}`: the rows as they were, until staff restore them. */
  archived_sites: {
    id: number;
    site: Record<string, unknown>;
    access: Record<string, unknown>[];
    archived_at: DefaultNow;
    archived_by: number | null;
    archived_by_email: string;
  };
  /** Devices taken off their site, or replaced by another unit. */
  retired_devices: {
    id: Generated<number>;
    device_id: number;
    serial: string;
    model_id: string;
    name: string;
    site_id: number;
    site_name: string;
    installed_at: Timestamp;
    retired_at: DefaultNow;
    retired_by: number | null;
    reason: 'removed' | 'replaced';
    replaced_by: string | null;
  };
  /** Every change of a device's place on a site, and of a site's archiving. */
  install_audit: {
    id: Generated<string>;
    at: DefaultNow;
    user_id: number | null;
    user_email: string;
    action: string;
    site_id: number;
    site_name: string;
    from_site_id: number | null;
    from_site_name: string | null;
    serial: string | null;
    model_id: string | null;
    old_name: string | null;
    new_name: string | null;
    other_serial: string | null;
    /** The installation of `serial` it belongs to (stamped by the database, migration 15). */
    installation_id: Generated<number | null>;
  };
  /** A device's stay on one site (migration 15; kept by triggers on `devices`). */
  installations: {
    id: Generated<number>;
    serial: string;
    model_id: string;
    site_id: number;
    device_id: number;
    started_at: DefaultNow;
    ended_at: Date | null;
    /** The company that held the site during the stay (migration 19). */
    company_id: Generated<number | null>;
  };
  /** Installer companies (migration 19). */
  companies: {
    id: Generated<number>;
    name: string;
    address: Generated<string>;
    logo: Buffer | null;
    logo_type: 'image/png' | 'image/jpeg' | null;
    /** The e-mail domain key it was made from (`domain:…` / `person:…`), or null. */
    origin: string | null;
    created_at: CreatedAt;
    updated_at: Generated<Date>;
  };
  /** A user's one company and their role in it. */
  company_members: {
    user_id: number;
    company_id: number;
    role: CompanyRole;
    joined_at: CreatedAt;
  };
  /** A site offered by its owner (or staff) to another installer company (migration 20). */
  site_handovers: {
    id: Generated<number>;
    site_id: number;
    from_company_id: number | null;
    to_company_id: number;
    requested_by: number | null;
    requested_at: CreatedAt;
    outcome: 'accepted' | 'declined' | 'withdrawn' | null;
    decided_by: number | null;
    decided_at: Date | null;
  };
  company_invitations: {
    id: Generated<number>;
    company_id: number;
    email: string;
    role: CompanyRole;
    /** SHA-256 (hex) of the link's secret. */
    token_hash: string;
    invited_by: number | null;
    created_at: CreatedAt;
    expires_at: Timestamp;
    accepted_at: Date | null;
    accepted_by: number | null;
    revoked_at: Date | null;
  };
  config_templates: {
    id: Generated<number>;
    company: string;
    name: string;
    model_id: string;
    settings: ColumnType<Record<string, number | string>, string, string>;
    created_by: number | null;
    created_by_email: string;
    updated_by_email: string;
    created_at: DefaultNow;
    updated_at: DefaultNow;
  };
  outbox_attachments: {
    id: Generated<number>;
    outbox_id: number;
    filename: string;
    content_type: string;
    content: Buffer;
  };
  telemetry_raw: {
    device_id: number;
    device_time: Timestamp;
    received_at: Timestamp;
    /** READING_FLAGS bits: clock ahead, seeded. */
    flags: number;
    vals: ColumnType<Record<string, number>, string, string>;
  };
  telemetry_5m: {
    device_id: number;
    bucket: Timestamp;
    /** The metrics of the arrays, in order. */
    metrics: string[];
    n: number[];
    total: number[];
    min: (number | null)[];
    max: (number | null)[];
    last: (number | null)[];
    last_at: (Date | null)[];
    increase: (number | null)[];
    folded: Generated<boolean>;
    /** How many readings were merged into the step; null for steps stored before it was counted. */
    readings: number | null;
  };
  telemetry_1h: RollupRow & { hour: Timestamp };
  telemetry_1d: RollupRow & { day: ColumnType<string, string, string> };
  telemetry_latest: {
    device_id: number;
    device_time: Timestamp;
    received_at: Timestamp;
    flags: number;
    vals: ColumnType<Record<string, number>, string, string>;
  };
  telemetry_counts: { day: ColumnType<string, string, string>; kind: string; count: number };
  alarms: {
    id: Generated<number>;
    /** The device whose alarm it is; null for a site's own alarm. */
    device_id: number | null;
    /** The site of a site's own alarm; null for a device's (its site is the device's). */
    site_id: number | null;
    rule: string;
    kind: 'offline' | 'status' | 'threshold';
    severity: 'info' | 'warning' | 'critical';
    message: string;
    value: number | null;
    state: 'active' | 'acknowledged' | 'cleared';
    raised_at: Timestamp;
    acknowledged_at: Timestamp | null;
    acknowledged_by: number | null;
    ack_note: string | null;
    cleared_at: Timestamp | null;
  };
  /** Since when the service has been watching for silent devices without a break (one row). */
  alarm_watch: {
    id: Generated<number>;
    watching_since: Timestamp;
    checked_at: Timestamp;
  };
  alarm_transitions: {
    alarm_id: number;
    state: 'active' | 'acknowledged' | 'cleared';
    at: Timestamp;
    user_id: number | null;
    note: string | null;
  };
}

/** One step of one metric of one device (`telemetry_1h`, `telemetry_1d`). */
interface RollupRow {
  device_id: number;
  metric: string;
  n: number;
  total: number;
  min: number | null;
  max: number | null;
  last: number | null;
  last_at: Timestamp | null;
  /** Energy counters: how much the counter grew in the step (readings there, from the one before). */
  increase: number | null;
}
