import { generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { etag } from 'hono/etag';
import { createLocalJWKSet, createRemoteJWKSet } from 'jose';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../contracts/app-config.ts';
import { loadCodec, loadFirmwareCodec } from '../src/codec/load-node.ts';
import { loadCodeKey } from './auth/code-key.ts';
import { DEFAULT_SCRYPT_COST, type ScryptCost } from './auth/passwords.ts';
import { pruneExpired } from './auth/rate-limit.ts';
import { SessionCutoffs } from './auth/sessions.ts';
import { loadSigningKey, type SigningKey } from './auth/signing-keys.ts';
import { type DeviceKey, PageAnchors } from './cache/list-totals.ts';
import { PageCache } from './cache/page-cache.ts';
import { type Alarm, type Clock, systemClock, timerAlarm } from './clock.ts';
import { ReportCache } from './commissioning/report-cache.ts';
import { defaultReportWorkers, ReportPool } from './commissioning/report-pool.ts';
import { createConfigApp } from './config-service/config-app.ts';
import type { ServerContext } from './context.ts';
import { type DatabaseTarget, openDatabase } from './db/database.ts';
import { seedDemoWorld } from './db/demo-world.ts';
import { migrate } from './db/migrations.ts';
import { makeDataDirPrivate } from './db/private-data-dir.ts';
import type { Database } from './db/schema.ts';
import { wantsDemoSeed } from './db/seed.ts';
import { type Env, publicAppUrl, webhookRules } from './env.ts';
import { type FirmwareTrust, loadFirmwareTrust, trustOnly } from './firmware/firmware-keys.ts';
import { RolloutEngine, type RolloutTimers } from './firmware/rollout-engine.ts';
import { compressJson } from './http/compress-json.ts';
import { ApiError, handleError, handleNotFound } from './http/errors.ts';
import { securityHeaders } from './http/security-headers.ts';
import { LogSummary } from './logging/log-summary.ts';
import { createMailer } from './mail/mailer.ts';
import { logTransport, type MailTransport, smtpTransport } from './mail/transports.ts';
import { AlarmService } from './monitoring/alarms/alarm-store.ts';
import { FleetFeed } from './monitoring/fleet-feed.ts';
import { createMonitoringApp } from './monitoring/monitoring-app.ts';
import { TelemetryIngest } from './monitoring/telemetry/ingest.ts';
import { LiveFeed } from './monitoring/telemetry/live-feed.ts';
import { maintainPartitions } from './monitoring/telemetry/partitions.ts';
import { ProductCatalogue } from './monitoring/telemetry/product-catalogue.ts';
import { foldEveryMinute } from './monitoring/telemetry/rollup-fold.ts';
import { presenceFresh, presenceStaleSeconds } from './service-comms/presence.ts';
import { ServiceComms } from './service-comms/service-comms.ts';
import { serveApp } from './static-app.ts';
import { WebhookSender } from './webhooks/sender.ts';

/** The upload of firmware images: its body is an image, read with FIRMWARE_MAX_BYTES as its cap. */
const FIRMWARE_UPLOAD_PATH = '/config/fleet/firmware';

/** Which services one process runs. */
export type ServiceSelection = 'all' | 'config' | 'monitoring';

export interface CreateServerOptions {
  env: Env;
  /** Defaults to `DATABASE_URL`, else PGlite in `DATA_DIR/pglite`. */
  database?: DatabaseTarget;
  services?: ServiceSelection;
  /**
   * Signing keys; loaded from `SIGNING_KEY` or generated into `DATA_DIR` when absent. With given
   * keys and no `codes` key, one-time codes are keyed with a random key of this process.
   */
  keys?: { config: SigningKey; monitoring: SigningKey; codes?: Buffer; firmware?: KeyObject };
  scryptCost?: ScryptCost;
  /**
   * Seed the demo data into an empty database. Default: `SEED_DEMO` when set, else only the
   * embedded database (PGlite) of a start without `NODE_ENV=production` is seeded.
   */
  seed?: boolean;
  /**
   * Seed the demo's telemetry history (a week of readings of eight devices, generated at seed
   * time) along with the demo data. Default: `SEED_DEMO_HISTORY` when set, else only for a data
   * folder of its own (`npm start`), not for a test's in-memory database.
   */
  seedHistory?: boolean;
  /**
   * Look for silent devices on the clock (every third of `ALARM_OFFLINE_AFTER_S`). Default on; a
   * test that drives the sweep with its own clock turns it off.
   */
  watchSilence?: boolean;
  /** Where mail goes; default SMTP with `SMTP_URL`, else the log. */
  mailTransport?: MailTransport;
  /**
   * The time rate-limit windows, lockouts, codes and refresh tokens are counted in (`ctx.now`).
   * Default the real time; a test sets it to count calls inside one window and to move past it.
   */
  now?: Clock;
  /**
   * What wakes a live stream when its access token expires by `now`: by default the process's
   * timers reading `now`; a test's clock that jumps wakes it when it is moved.
   */
  alarm?: Alarm;
  /** Firmware rollouts' timers (a test shortens how long a device has to come back). */
  rolloutTimers?: Partial<RolloutTimers>;
  /** Folder of the built app (default `dist`) and of the bundled lists (default `public`). */
  distDir?: string;
  publicDir?: string;
}

/** A running server: the Hono app (for `serve` or `app.request()`), its context, and `close()`. */
export interface FleetServer {
  app: Hono;
  ctx: ServerContext;
  seeded: boolean;
  /** Whether this database gets the demo data (so the demo sign-ins apply). */
  demo: boolean;
  /**
   * Hand the device sockets over (stopping): take no more, store and acknowledge what they sent,
   * then close them with 1012 so that they reconnect at once, to another process. Once only.
   */
  handOverDevices(): Promise<void>;
  close(): Promise<void>;
}

/** How long a stopping process keeps trying to store what devices sent before it lets them resend it. */
const HANDOVER_STORE_MS = 10_000;

/** Telemetry, its live stream and alarms, on the catalogue of `publicDir`. */
async function buildMonitoring(
  env: Env,
  db: Kysely<Database>,
  databaseUrl: string | undefined,
  mailer: ServerContext['mailer'],
  publicDir: string,
): Promise<ServerContext['monitoring']> {
  const catalogue = new ProductCatalogue(await loadCodec(), publicDir);
  await catalogue.load();
  const live = new LiveFeed(db, databaseUrl);
  const staleS = presenceStaleSeconds(env.SERVICE_COMMS_PING_MS);
  const alarms = new AlarmService({
    db,
    mailer,
    catalogue,
    offlineAfterS: env.ALARM_OFFLINE_AFTER_S,
    online: () => presenceFresh(staleS),
  });
  const ingest = new TelemetryIngest({
    db,
    catalogue,
    rawDays: env.TELEMETRY_RAW_DAYS,
    stepFlushMs: env.TELEMETRY_STEP_MERGE_S * 1000,
    // With PostgreSQL every process hears of a batch through NOTIFY, this one included.
    notify: Boolean(databaseUrl),
    log: new LogSummary(console.warn),
    stored: async (batch) => {
      if (!databaseUrl) live.published([...new Set(batch.fresh.map((r) => r.deviceId))]);
      await alarms.afterReadings(batch.fresh);
    },
  });
  return { catalogue, ingest, live, fleet: new FleetFeed(db, databaseUrl), alarms };
}

async function buildContext(
  options: CreateServerOptions,
  db: Kysely<Database>,
  databaseUrl: string | undefined,
): Promise<ServerContext> {
  const { env } = options;
  const now = options.now ?? systemClock;
  const alarm = options.alarm ?? timerAlarm(now);
  const keys = options.keys ?? {
    config: await loadSigningKey(env.DATA_DIR, 'config-signing-key.json', env.SIGNING_KEY),
    monitoring: await loadSigningKey(env.DATA_DIR, 'monitoring-signing-key.json'),
  };
  // Alone, the monitoring service fetches the configuration JWKS over HTTP; in one process it
  // reads the same key set through the same JWKS interface.
  const configJwks =
    options.services === 'monitoring' && env.CONFIG_SERVICE_URL
      ? createRemoteJWKSet(new URL(`${env.CONFIG_SERVICE_URL.replace(/\/$/, '')}/.well-known/jwks.json`))
      : createLocalJWKSet({ keys: [keys.config.publicJwk] });
  const codeKey = env.CODE_HMAC_KEY
    ? loadCodeKey(env.DATA_DIR, env.CODE_HMAC_KEY)
    : options.keys
      ? (options.keys.codes ?? randomBytes(32))
      : loadCodeKey(env.DATA_DIR);
  const mailer = createMailer(
    db,
    options.mailTransport ??
      (env.SMTP_URL ? smtpTransport(env.SMTP_URL, env.MAIL_FROM) : logTransport(env.MAIL_LOG_CODES)),
    { maxAttempts: env.MAIL_MAX_ATTEMPTS, firstDelaySeconds: 30, maxDelaySeconds: 3600 },
    codeKey,
    now,
  );
  const firmware = { trust: firmwareTrust(options), codec: await loadFirmwareCodec() };
  const monitoring = await buildMonitoring(env, db, databaseUrl, mailer, options.publicDir ?? 'public');
  const sessions = new SessionCutoffs(db);
  // Whoever's sessions end (logout, a revoked sign-in, a password, e-mail or role change): their
  // live streams, on every process, check again.
  sessions.onEnded = (userId) => void monitoring.live.announce({ users: [userId] });
  const reportPool = new ReportPool(env.REPORT_WORKERS ?? defaultReportWorkers());
  const comms = new ServiceComms({
    db,
    now,
    ...(databaseUrl ? { databaseUrl } : {}),
    timeoutMs: env.SERVICE_COMMS_TIMEOUT_MS,
    pingMs: env.SERVICE_COMMS_PING_MS,
    trustProxy: env.TRUST_PROXY,
    telemetry: { sink: monitoring.ingest, intervalS: env.TELEMETRY_INTERVAL_S },
  });
  const rules = webhookRules(env);
  const webhooks = {
    rules,
    sender: new WebhookSender({
      db,
      codeKey,
      mailer,
      rules,
      companyDomain: env.COMPANY_DOMAIN,
      appUrl: publicAppUrl(env),
    }),
  };
  monitoring.alarms.afterNews = () => webhooks.sender.kick();
  return {
    db,
    env,
    now,
    alarm,
    codeKey,
    firmware,
    configKey: keys.config,
    monitoringKey: keys.monitoring,
    configJwks,
    monitoringJwks: createLocalJWKSet({ keys: [keys.monitoring.publicJwk] }),
    mailer,
    webhooks,
    sessions,
    reports: { pool: reportPool, cache: new ReportCache({ db, now }, reportPool) },
    scryptCost: options.scryptCost ?? DEFAULT_SCRYPT_COST,
    lists: {
      pages: new PageCache(),
      anchors: new PageAnchors(),
      deviceAnchors: new PageAnchors<DeviceKey>(),
    },
    comms,
    rollouts: new RolloutEngine(
      db,
      comms,
      {
        sweepMs: 5000,
        comebackMs: env.FIRMWARE_COMEBACK_S * 1000,
        answerMs: env.SERVICE_COMMS_TIMEOUT_MS,
        now,
        ...options.rolloutTimers,
      },
      (deviceId, outcome, reason) =>
        outcome === 'reverted'
          ? monitoring.alarms.firmwareReverted(deviceId, reason)
          : monitoring.alarms.firmwareConfirmed(deviceId),
    ),
    monitoring,
  };
}

/**
 * The keys firmware images must be signed with: `FIRMWARE_PUBLIC_KEYS`, else the development key
 * of DATA_DIR; a start with given keys (a test) and no firmware key signs with a key of this process.
 */
function firmwareTrust(options: CreateServerOptions): FirmwareTrust {
  const { env } = options;
  if (options.keys && env.FIRMWARE_PUBLIC_KEYS.length === 0)
    return trustOnly(options.keys.firmware ?? generateKeyPairSync('ed25519').privateKey);
  return loadFirmwareTrust({
    dataDir: env.DATA_DIR,
    publicKeys: env.FIRMWARE_PUBLIC_KEYS,
    production: env.NODE_ENV === 'production',
  });
}

/**
 * Open the database, migrate it, seed an empty one, and build the app with the selected services.
 * @example const server = await createServer({ env: parseEnv(process.env) }); serve(server.app)
 */
export async function createServer(options: CreateServerOptions): Promise<FleetServer> {
  const { env } = options;
  const services = options.services ?? 'all';
  const target =
    options.database ??
    (env.DATABASE_URL ? { url: env.DATABASE_URL } : { pgliteDir: `${env.DATA_DIR}/pglite` });
  // The embedded database and the signing keys live in DATA_DIR: private to the server's user.
  const usesDataDir = !options.keys || ('pgliteDir' in target && !target.pgliteDir.startsWith('memory://'));
  if (usesDataDir) makeDataDirPrivate(env.DATA_DIR);
  const db = openDatabase(target);
  try {
    await migrate(db, { fallbackZone: env.TELEMETRY_TIME_ZONE, companyDomain: env.COMPANY_DOMAIN });
    if (usesDataDir) makeDataDirPrivate(env.DATA_DIR);
    const ctx = await buildContext({ ...options, services }, db, 'url' in target ? target.url : undefined);
    // Demo users have published passwords: only the embedded database outside production gets
    // them unless asked.
    const demo =
      options.seed ?? wantsDemoSeed(env.SEED_DEMO, 'pgliteDir' in target, env.NODE_ENV === 'production');
    const seeded = demo
      ? await seedDemoWorld(ctx, {
          usesDataDir,
          seedHistory: options.seedHistory ?? env.SEED_DEMO_HISTORY ?? usesDataDir,
        })
      : false;
    const app = new Hono();
    // The one error handler of the whole server: services and middleware throw `ApiError`
    // (an `HTTPException`) and register none of their own.
    app.onError(handleError);
    app.notFound(handleNotFound);
    // First, so that every answer carries them: errors, 404s and CORS preflights included.
    app.use('*', securityHeaders({ maps: Boolean(env.MAPS_API_KEY) }));
    if (env.APP_ORIGINS.length > 0) {
      app.use(
        '*',
        cors({
          origin: env.APP_ORIGINS,
          allowHeaders: [
            'content-type',
            'authorization',
            'api-key',
            'list-version',
            'main_email',
            'temp_code',
            'new_password',
          ],
          exposeHeaders: ['list-version'],
        }),
      );
    }
    // Every call's body is small JSON; refuse big ones before reading them.
    const limit = bodyLimit({
      maxSize: 64 * 1024,
      onError: () => {
        throw new ApiError(413, 'body_too_large', 'The body is larger than 64 KiB');
      },
    });
    // Reading `body` makes the adapter build a full Request: skip the check where there is none.
    // A firmware upload is the one binary body: its route streams it with its own cap.
    const limitBodies: MiddlewareHandler = (c, next) =>
      c.req.method === 'GET' ||
      c.req.method === 'HEAD' ||
      (c.req.method === 'POST' && c.req.path === FIRMWARE_UPLOAD_PATH)
        ? next()
        : limit(c, next);
    app.use('/config/*', limitBodies);
    app.use('/monitoring/*', limitBodies);
    app.use('/config/*', compressJson());
    app.use('/monitoring/*', compressJson());
    if (services !== 'monitoring') app.route('/config', createConfigApp(ctx, options.publicDir ?? 'public'));
    if (services !== 'config') app.route('/monitoring', createMonitoringApp(ctx));
    // Read at every start-up: revalidated each time, a 304 while it is unchanged.
    app.get('/app-config.json', etag(), (c) => {
      c.header('Cache-Control', 'no-cache');
      const body: AppConfig = {
        configUrl: '/config',
        monitoringUrl: '/monitoring',
        devicesListUrl: '/config/devices-list',
        apiKey: env.API_KEY,
        linkKey: env.LINK_KEY,
        companyDomain: env.COMPANY_DOMAIN,
        mapsApiKey: env.MAPS_API_KEY ?? null,
      };
      return c.json(body);
    });
    if (services === 'all') serveApp(app, options.distDir ?? 'dist');
    const partitions = () =>
      maintainPartitions(db, Date.now(), env.TELEMETRY_RAW_DAYS).then((dropped) => {
        if (dropped.length > 0) console.log(`[telemetry] dropped old partitions: ${dropped.join(', ')}`);
      });
    await partitions();
    const pruning = setInterval(() => {
      pruneExpired(ctx).catch((error: unknown) => console.error('[prune]', error));
      ctx.webhooks.sender.prune().catch((error: unknown) => console.error('[webhooks] prune failed:', error));
      partitions().catch((error: unknown) => console.error('[telemetry] partition upkeep failed:', error));
    }, 3_600_000);
    pruning.unref();
    if (services !== 'monitoring') {
      ctx.mailer.start();
      ctx.webhooks.sender.start();
      await ctx.comms.start();
      ctx.rollouts.start();
    }
    if (services !== 'config') {
      await ctx.monitoring.live.start();
      await ctx.monitoring.fleet.start();
      if (options.watchSilence ?? true) ctx.monitoring.alarms.start();
    }
    const stopFolding = foldEveryMinute(db);
    let handover: Promise<void> | undefined;
    const handOverDevices = () => {
      handover ??= (async () => {
        ctx.comms.stopTaking();
        const rolloutsStopped = ctx.rollouts.stop();
        // Readings taken are committed and acknowledged while their sockets are still open; past
        // the deadline (the database is away) the devices keep them and send them elsewhere.
        await ctx.monitoring.ingest.flush(Date.now() + HANDOVER_STORE_MS);
        await ctx.comms.close();
        await rolloutsStopped;
      })();
      return handover;
    };
    return {
      app,
      ctx,
      seeded,
      demo,
      handOverDevices,
      close: async () => {
        clearInterval(pruning);
        stopFolding();
        ctx.monitoring.alarms.stop();
        await handOverDevices();
        // Counts and what else is left are written before the database closes.
        await ctx.monitoring.ingest.close(Date.now() + HANDOVER_STORE_MS);
        await ctx.monitoring.live.close();
        await ctx.reports.pool.close();
        await ctx.monitoring.fleet.close();
        await ctx.webhooks.sender.stop();
        await ctx.mailer.stop();
        await db.destroy();
      },
    };
  } catch (error) {
    await db.destroy();
    throw error;
  }
}
