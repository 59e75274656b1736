import { z } from 'zod';

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
  MAPS_API_KEY: optionalText,
  /** A private signing key as JWK JSON; generated into DATA_DIR when absent. */
  SIGNING_KEY: optionalText,
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
  /** Take the client address from X-Forwarded-For (only behind a trusted proxy). */
  TRUST_PROXY: z
    .enum(['0', '1', 'true', 'false', ''])
    .default('0')
    .transform((value) => value === '1' || value === 'true'),
  /** Sign-in attempts allowed per account and per address in a 15-minute window. */
  LOGIN_LIMIT_PER_ACCOUNT: z.coerce.number().int().min(1).default(10),
  LOGIN_LIMIT_PER_ADDRESS: z.coerce.number().int().min(1).default(100),
});
export type Env = z.infer<typeof envSchema>;

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
  const result = envSchema.safeParse(source);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  throw new EnvError(`Invalid environment:\n  ${lines.join('\n  ')}`);
}
