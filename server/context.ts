import type { JWTVerifyGetKey } from 'jose';
import type { Kysely } from 'kysely';
import type { FirmwareCodec } from '../src/codec/firmware/image-types.ts';
import type { ScryptCost } from './auth/passwords.ts';
import type { SessionCutoffs } from './auth/sessions.ts';
import type { SigningKey } from './auth/signing-keys.ts';
import type { DeviceKey, PageAnchors } from './cache/list-totals.ts';
import type { PageCache } from './cache/page-cache.ts';
import type { Alarm, Clock } from './clock.ts';
import type { ReportCache } from './commissioning/report-cache.ts';
import type { ReportPool } from './commissioning/report-pool.ts';
import type { Database } from './db/schema.ts';
import type { Env } from './env.ts';
import type { FirmwareTrust } from './firmware/firmware-keys.ts';
import type { RolloutEngine } from './firmware/rollout-engine.ts';
import type { Mailer } from './mail/mailer.ts';
import type { AlarmService } from './monitoring/alarms/alarm-store.ts';
import type { FleetFeed } from './monitoring/fleet-feed.ts';
import type { TelemetryIngest } from './monitoring/telemetry/ingest.ts';
import type { LiveFeed } from './monitoring/telemetry/live-feed.ts';
import type { ProductCatalogue } from './monitoring/telemetry/product-catalogue.ts';
import type { ServiceComms } from './service-comms/service-comms.ts';
import type { WebhookSender } from './webhooks/sender.ts';
import type { TargetRules } from './webhooks/target-guard.ts';

/** What every route needs, built once by `createServer`. */
export interface ServerContext {
  db: Kysely<Database>;
  env: Env;
  /**
   * The time rate-limit windows, lockouts, codes, access and refresh tokens, session cut-offs,
   * API keys and revocations are counted in (`clock.ts`): the real time unless a test sets it.
   */
  now: Clock;
  /** Wakes what waits for a time on `now` (a live stream whose access token expires). */
  alarm: Alarm;
  /** Signs configuration access tokens; its public half is the configuration JWKS. */
  configKey: SigningKey;
  /** Signs monitoring access tokens. */
  monitoringKey: SigningKey;
  /** How the monitoring service checks configuration tokens (local or remote JWKS). */
  configJwks: JWTVerifyGetKey;
  /** How the monitoring service checks its own tokens. */
  monitoringJwks: JWTVerifyGetKey;
  mailer: Mailer;
  /** The key one-time codes are stored under (HMAC), kept outside the database. */
  codeKey: Buffer;
  /** Each user's session cut-off: access tokens issued before it answer 401. */
  sessions: SessionCutoffs;
  scryptCost: ScryptCost;
  /** This server's list pages by scope version, and where deep pages start. */
  lists: { pages: PageCache; anchors: PageAnchors; deviceAnchors: PageAnchors<DeviceKey> };
  /** Commissioning reports: built in worker threads, the newest of each site kept. */
  reports: { pool: ReportPool; cache: ReportCache };
  /** Firmware images: the keys they must be signed with, and the Wasm parser that reads them. */
  firmware: { trust: FirmwareTrust; codec: FirmwareCodec };
  /** Webhooks: where they may be sent, and the outbox's worker. */
  webhooks: { rules: TargetRules; sender: WebhookSender };
  /** Devices online: device sockets, presence, and commands to devices (DESIGN.md §10). */
  comms: ServiceComms;
  /** Firmware rollouts over the device sockets this process holds. */
  rollouts: RolloutEngine;
  /** Monitoring (DESIGN.md §11): telemetry in, its live stream, alarms. */
  monitoring: {
    catalogue: ProductCatalogue;
    /** Telemetry from the device sockets this process holds. */
    ingest: TelemetryIngest;
    live: LiveFeed;
    /** Which sites changed, for the fleet streams of this process. */
    fleet: FleetFeed;
    alarms: AlarmService;
  };
}
