import { z } from 'zod';

/** What every API key starts with, so that secret scanners can find one pasted where it should not be. */
export const API_KEY_PREFIX = 'fm_pat_';

/** What a key may do: `read` calls only GET and HEAD; `write` may change what its owner may change. */
export const apiKeyScopeSchema = z.enum(['read', 'write']);
export type ApiKeyScope = z.infer<typeof apiKeyScopeSchema>;

/** The lifetimes a key may be given, in days; none (null or left out) is a key that never expires. */
export const API_KEY_LIFETIMES = [30, 90, 365] as const;

/** `POST /fleet/api-keys`. */
export const createApiKeyRequestSchema = z.strictObject({
  name: z
    .string({ error: 'name is required' })
    .trim()
    .min(1, 'name must not be empty')
    .max(80, 'name must be at most 80 characters'),
  scope: z.enum(['read', 'write'], { error: 'scope must be "read" or "write"' }),
  expiresInDays: z
    .union([z.literal(30), z.literal(90), z.literal(365)], {
      error: 'expiresInDays must be 30, 90 or 365, or left out for a key that never expires',
    })
    .nullable()
    .optional(),
});
export type CreateApiKeyRequest = z.infer<typeof createApiKeyRequestSchema>;

/** A key as its owner's list shows it: never its secret. Times are ISO 8601. */
export const apiKeySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  scope: apiKeyScopeSchema,
  createdAt: z.string(),
  /** Null: the key never expires. */
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  /** The address of the call that last used it. */
  lastUsedAddress: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** `GET /fleet/api-keys`: the caller's keys that are not revoked, newest first. */
export const apiKeyListSchema = z.object({ keys: z.array(apiKeySchema) });

/** `POST /fleet/api-keys` answers the key's secret, this once. */
export const createdApiKeySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  scope: apiKeyScopeSchema,
  expiresAt: z.string().nullable(),
  /** `fm_pat_` and 43 base64url characters; never shown again. */
  key: z.string().startsWith(API_KEY_PREFIX),
});
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;
