import { createPublicKey } from 'node:crypto';
import { z } from 'zod';

/** A PEM public key's body or its header-less base64: either is base64 of DER SubjectPublicKeyInfo. */
function ed25519PublicKey(text: string): boolean {
  const base64 = text.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, '').replace(/\s+/g, '');
  try {
    const key = createPublicKey({ key: Buffer.from(base64, 'base64'), format: 'der', type: 'spki' });
    return key.asymmetricKeyType === 'ed25519';
  } catch {
    return false;
  }
}

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

/**
 * Everything the server reads from its environment. Defaults are for local development only;
 * a deployment sets its own keys.
 */
export const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(8080),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .trim()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  API_KEY: z.string().trim().min(8).default('dev-api-key'),
  LINK_KEY: z
    .string()
    .trim()
    .regex(/^[^:]+:.+$/, 'LINK_KEY must be user:password')
    .default('fleet:dev-link-key'),
  COMPANY_DOMAIN: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9.-]+\.[a-z]{2,}$/, 'COMPANY_DOMAIN must be a domain such as fleet.example')
    .default('fleet.example'),
  ACCESS_TOKEN_TTL: z.coerce.number().int().min(30).max(86_400).default(900),
  REFRESH_TOKEN_TTL: z.coerce
    .number()
    .int()
    .min(300)
    .max(60 * 86_400)
    .default(30 * 86_400),
  SMTP_URL: optionalText.pipe(z.url().optional()),
  MAIL_FROM: z.string().trim().default('Fleet Manager <no-reply@fleet.example>'),
  /**
   * Where people open the app (`https://fleet.example.com`, a path allowed): the access-code mail
   * links to its "choose your password" step. Unset: `http://localhost:<PORT>`, for development;
   * refused when NODE_ENV=production, since mail would link to the recipient's own machine.
   */
  PUBLIC_APP_URL: optionalText.pipe(
    z
      .url({ protocol: /^https?$/, error: 'PUBLIC_APP_URL must be an http:// or https:// address' })
      .transform((value) => value.replace(/\/+$/, ''))
      .optional(),
  ),
  MAPS_API_KEY: optionalText,
  /** A private signing key as JWK JSON; generated into DATA_DIR when absent. */
  SIGNING_KEY: optionalText,
  /** The key one-time codes are stored under (base64url, 32 bytes or more); generated into DATA_DIR when absent. */
  CODE_HMAC_KEY: optionalText.pipe(
    z
      .string()
      .regex(
        /^[A-Za-z0-9_-]{43,}$/,
        'CODE_HMAC_KEY must be at least 32 random bytes, base64url (43 characters or more)',
      )
      .optional(),
  ),
  /** Where the monitoring service fetches the configuration service's JWKS when run alone. */
  CONFIG_SERVICE_URL: optionalText.pipe(z.url().optional()),
  /** Comma-separated origins allowed by CORS, for a split deployment; same-origin when empty. */
  APP_ORIGINS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    ),
  /**
   * How many trusted proxies stand in front of the server: the client address is the
   * X-Forwarded-For entry that many places from the right. `true` means 1; `0`/`false`: the socket.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .default('0')
    .transform((value) => (value === 'true' ? '1' : value === 'false' || value === '' ? '0' : value))
    .pipe(
      z.string().regex(/^([0-9]|1[0-6])$/, 'TRUST_PROXY must be a number of proxies (0-16), true or false'),
    )
    .transform(Number),
  /** Failed sign-ins allowed per account from one address, and from one address in all, per 15 minutes. */
  LOGIN_LIMIT_PER_ACCOUNT: z.coerce.number().int().min(1).default(10),
  LOGIN_LIMIT_PER_ADDRESS: z.coerce.number().int().min(1).default(100),
  /**
   * Calls one API key may make per minute: its token bucket holds this many and fills again at
   * this rate, shared by every process (the bucket is in the database).
   */
  API_KEY_RATE_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(600),
  /**
   * Failed sign-ins on one account from all addresses per 15 minutes; past it, every address that
   * failed on the account is refused for it (an address without failures still signs in).
   */
  LOGIN_CEILING_PER_ACCOUNT: z.coerce.number().int().min(1).default(1000),
  /** Seconds in which a just-rotated refresh token presented again answers the same successor. */
  REFRESH_GRACE_SECONDS: z.coerce.number().int().min(0).max(300).default(30),
  /** Seed the demo users: default on for the embedded database only. */
  SEED_DEMO: z
    .enum(['0', '1', ''])
    .optional()
    .transform((value) => (value === '1' ? true : value === '0' ? false : undefined)),
  /**
   * Seed the demo's week of telemetry history along with the demo: default on where the server
   * keeps its own data folder (`npm start`); `0` seeds the demo without it, a start seconds sooner.
   */
  SEED_DEMO_HISTORY: z
    .enum(['0', '1', ''])
    .optional()
    .transform((value) => (value === '1' ? true : value === '0' ? false : undefined)),
  /** Print one-time codes in the log when mail has no SMTP_URL (local development only). */
  MAIL_LOG_CODES: z
    .enum(['0', '1', ''])
    .default('0')
    .transform((value) => value === '1'),
  /** Attempts to deliver one e-mail before it is marked `failed`. */
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(6),
  /** Milliseconds a device has to answer a service-comms command before the caller gets 504. */
  SERVICE_COMMS_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(5000),
  /** Milliseconds between pings of a device socket; a socket that missed a pong is dropped. */
  SERVICE_COMMS_PING_MS: z.coerce.number().int().min(1000).max(300_000).default(15_000),
  /** Seconds between a device's telemetry messages: sent to each device in its welcome. */
  TELEMETRY_INTERVAL_S: z.coerce.number().int().min(1).max(3600).default(10),
  /**
   * Seconds a 5-minute step's later readings wait in the process at most before they are merged
   * into it (the step's first readings are merged with their batch, and an ended step's at once):
   * what a chart's step under way lags by.
   */
  TELEMETRY_STEP_MERGE_S: z.coerce.number().int().min(1).max(3600).default(60),
  /** Days raw readings are kept (whole daily partitions are dropped after). */
  TELEMETRY_RAW_DAYS: z.coerce.number().int().min(2).max(366).default(7),
  /**
   * The time zone a site gets when it has neither a position nor a country whose zone is known
   * (each site's days begin at midnight in its own zone).
   */
  TELEMETRY_TIME_ZONE: z
    .string()
    .trim()
    .default('UTC')
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, 'TELEMETRY_TIME_ZONE must be an IANA time zone such as Europe/Berlin or America/Chicago'),
  /** A device silent for longer than this many seconds raises an offline alarm. */
  ALARM_OFFLINE_AFTER_S: z.coerce
    .number()
    .int()
    .min(3)
    .max(7 * 86_400)
    .default(900),
  /** `npm start` runs the demo's simulated devices over the device socket; `0` turns them off. */
  SIMULATED_DEVICES: z
    .enum(['0', '1', ''])
    .default('1')
    .transform((value) => value !== '0'),
  /**
   * Seconds an idle kept-alive connection stays open. Above a load balancer's idle timeout (60 s
   * on most), so the balancer is the one that closes it: a server that closes first races the
   * balancer's next request on that connection (a reset, answered as 502).
   */
  HTTP_KEEP_ALIVE_TIMEOUT_S: z.coerce.number().int().min(1).max(3600).default(65),
  /** Seconds a client has to send a request's headers; above the keep-alive timeout, as Node needs. */
  HTTP_HEADERS_TIMEOUT_S: z.coerce.number().int().min(2).max(3600).default(66),
  /** Seconds a client has to send a whole request (headers and body); at least the headers' timeout. */
  HTTP_REQUEST_TIMEOUT_S: z.coerce.number().int().min(2).max(3600).default(120),
  /** Worker threads that build commissioning reports; default: the cores but one, at least one. */
  REPORT_WORKERS: z.coerce.number().int().min(1).max(64).optional(),
  /**
   * The public keys firmware images must be signed with, comma-separated: each an Ed25519 public
   * key as base64 DER SubjectPublicKeyInfo (a PEM file's body; `MCowBQYDK2VwAyEA…`). Unset, the
   * server makes a development key in DATA_DIR (`firmware-signing-key.pem`) and trusts its public
   * half; refused unset when NODE_ENV=production.
   */
  FIRMWARE_PUBLIC_KEYS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((key) => key.trim())
        .filter(Boolean),
    )
    .refine(
      (keys) => keys.every(ed25519PublicKey),
      'FIRMWARE_PUBLIC_KEYS must be Ed25519 public keys, base64 DER (a PEM body), comma-separated',
    ),
  /** The largest firmware image an upload may send, in bytes. */
  FIRMWARE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(4096)
    .max(256 * 1024 * 1024)
    .default(8 * 1024 * 1024),
  /**
   * Seconds a device a rollout reset to test its new image has to come back (with it, or reverted
   * to its old one) before the rollout counts it failed: a start, MCUboot's swap and a watchdog.
   */
  FIRMWARE_COMEBACK_S: z.coerce.number().int().min(10).max(86_400).default(600),
  /**
   * Webhooks may be sent to loopback, private, link-local and metadata addresses: `1` yes, `0`
   * no. Unset: yes in development (a receiver on this machine), no with NODE_ENV=production,
   * where `1` is refused at start.
   */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: z
    .enum(['0', '1', ''])
    .optional()
    .transform((value) => (value === '1' ? true : value === '0' ? false : undefined)),
  NODE_ENV: optionalText,
});
export type Env = z.infer<typeof envSchema>;

/** The HTTP timeouts in the order Node and a balancer need them: keep-alive < headers ≤ request. */
function orderHttpTimeouts(env: Env, ctx: z.RefinementCtx): void {
  if (env.HTTP_HEADERS_TIMEOUT_S <= env.HTTP_KEEP_ALIVE_TIMEOUT_S)
    ctx.addIssue({
      code: 'custom',
      path: ['HTTP_HEADERS_TIMEOUT_S'],
      message: `must be more than HTTP_KEEP_ALIVE_TIMEOUT_S (${env.HTTP_KEEP_ALIVE_TIMEOUT_S})`,
    });
  if (env.HTTP_REQUEST_TIMEOUT_S < env.HTTP_HEADERS_TIMEOUT_S)
    ctx.addIssue({
      code: 'custom',
      path: ['HTTP_REQUEST_TIMEOUT_S'],
      message: `must be at least HTTP_HEADERS_TIMEOUT_S (${env.HTTP_HEADERS_TIMEOUT_S})`,
    });
}

/** A production start must not run on the published development keys or print codes. */
function refuseDevDefaultsInProduction(env: Env, ctx: z.RefinementCtx): void {
  if (env.NODE_ENV !== 'production') return;
  const refuse = (variable: keyof Env, message: string) =>
    ctx.addIssue({ code: 'custom', path: [variable], message });
  if (env.API_KEY.startsWith('dev-'))
    refuse('API_KEY', 'set a key of your own: the dev-* default is refused when NODE_ENV=production');
  if (env.LINK_KEY.split(':').slice(1).join(':').startsWith('dev-'))
    refuse('LINK_KEY', 'set a key of your own: the dev-* default is refused when NODE_ENV=production');
  if (env.MAIL_LOG_CODES)
    refuse('MAIL_LOG_CODES', 'printing one-time codes is for development: refused when NODE_ENV=production');
  if (env.FIRMWARE_PUBLIC_KEYS.length === 0)
    refuse(
      'FIRMWARE_PUBLIC_KEYS',
      'name the public keys firmware images are signed with: the development key is refused when NODE_ENV=production',
    );
  if (env.WEBHOOK_ALLOW_PRIVATE_TARGETS === true)
    refuse(
      'WEBHOOK_ALLOW_PRIVATE_TARGETS',
      'webhooks to private and metadata addresses are for development: refused when NODE_ENV=production',
    );
  if (!env.PUBLIC_APP_URL)
    refuse(
      'PUBLIC_APP_URL',
      'set the address people open the app at: access-code mail links to it (refused unset when NODE_ENV=production)',
    );
}

/** Where webhooks may be sent (server/webhooks/target-guard.ts): https only and public addresses only in production. */
export function webhookRules(env: Pick<Env, 'NODE_ENV' | 'WEBHOOK_ALLOW_PRIVATE_TARGETS'>) {
  const production = env.NODE_ENV === 'production';
  return { httpsOnly: production, allowPrivate: env.WEBHOOK_ALLOW_PRIVATE_TARGETS ?? !production };
}

/** The address access-code mail links to: `PUBLIC_APP_URL`, else this machine's port. */
export function publicAppUrl(env: Pick<Env, 'PUBLIC_APP_URL' | 'PORT'>): string {
  return env.PUBLIC_APP_URL ?? `http://localhost:${env.PORT}`;
}

/** Thrown when the environment holds a bad value; the message names every bad variable. */
export class EnvError extends Error {
  override name = 'EnvError';
}

/**
 * Parse the environment, naming each bad variable.
 * @throws {EnvError} when a variable is invalid.
 * @example parseEnv({ PORT: '3000' }).PORT === 3000
 */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema
    .superRefine(orderHttpTimeouts)
    .superRefine(refuseDevDefaultsInProduction)
    .safeParse(source);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  throw new EnvError(`Invalid environment:\n  ${lines.join('\n  ')}`);
}
