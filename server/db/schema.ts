import type { ColumnType, Generated } from 'kysely';
import type { UserRole } from '../../contracts/users.ts';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;

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
    owner_id: number | null;
    installer_id: number | null;
    device_count: Generated<number>;
    created_at: CreatedAt;
    updated_at: Generated<Date>;
  };
  site_access: {
    site_id: number;
    user_id: number;
    roles: string[];
    access: boolean;
  };
  devices: {
    id: Generated<number>;
    model_id: string;
    serial: string;
    name: string;
    site_id: number;
    installed_at: CreatedAt;
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
    device_id: number;
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
  alarm_transitions: {
    alarm_id: number;
    state: 'active' | 'acknowledged' | 'cleared';
    at: Timestamp;
    user_id: number | null;
    note: string | null;
  };
}

/** One step of one metric of one device (`telemetry_5m`, `telemetry_1d`). */
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
