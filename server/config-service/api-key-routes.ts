import { Hono } from 'hono';
import { z } from 'zod';
import { mayCreateKeys, mayManageKeys } from '../../contracts/access-policy.ts';
import {
  apiKeyListSchema,
  createApiKeyRequestSchema,
  createdApiKeySchema,
} from '../../contracts/api-keys.ts';
import { allowOnly } from '../access/allow-only.ts';
import { bucketOf, createApiKey, listApiKeys, revokeApiKey } from '../auth/api-keys.ts';
import type { ServerContext } from '../context.ts';
import { clientAddress } from '../http/client-address.ts';
import type { AuthVariables } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { describeRoute } from '../openapi/route-notes.ts';

const NOT_WITH_A_KEY = 'An API key cannot create, list or revoke API keys; sign in to manage them';
const keyParams = z.object({ id: z.uuid({ error: 'id must be an API key id (a UUID)' }) });

/**
 * The caller's own API keys, mounted at `/fleet/api-keys`: create (the key's text is answered
 * this once), list, revoke. Only a person signed in manages keys: a call made with a key answers
 * 403, so a key never makes another or learns of one.
 */
export function apiKeyRoutes(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  const { db } = ctx;
  const onlyPeople = allowOnly(mayManageKeys, NOT_WITH_A_KEY);

  app.post(
    '/',
    describeRoute({
      summary: 'Create an API key; its text is answered this once',
      tag: 'api keys',
      example: { name: 'Energy spreadsheet', scope: 'read', expiresInDays: 90 },
      responses: {
        201: {
          description: 'The key, with its text (`key`), never shown again',
          schema: createdApiKeySchema,
        },
        403: { description: 'Made with an API key: keys never create keys' },
      },
    }),
    allowOnly((caller) => mayCreateKeys(caller, caller.id), NOT_WITH_A_KEY),
    validate('json', createApiKeyRequestSchema),
    async (c) => {
      const created = await createApiKey(
        db,
        ctx.codeKey,
        c.get('principal').id,
        c.req.valid('json'),
        bucketOf(ctx.env.API_KEY_RATE_LIMIT),
        clientAddress(c, ctx.env.TRUST_PROXY),
        ctx.now(),
      );
      return c.json(created, 201);
    },
  );

  app.get(
    '/',
    describeRoute({
      summary: 'Your API keys: created, expires, last used (time and address)',
      tag: 'api keys',
      responses: {
        200: { description: 'Keys not revoked, newest first', schema: apiKeyListSchema },
        403: { description: 'Made with an API key' },
      },
    }),
    onlyPeople,
    async (c) => c.json({ keys: await listApiKeys(db, c.get('principal').id) }),
  );

  app.delete(
    '/:id',
    describeRoute({
      summary: 'Revoke one of your API keys; every call with it answers 401 from now on',
      tag: 'api keys',
      responses: {
        204: { description: 'Revoked' },
        403: { description: 'Made with an API key' },
        404: { description: 'You hold no such key' },
      },
    }),
    onlyPeople,
    validate('param', keyParams),
    async (c) => {
      const caller = c.get('principal');
      await revokeApiKey(
        db,
        caller.id,
        c.req.valid('param').id,
        clientAddress(c, ctx.env.TRUST_PROXY),
        ctx.now(),
      );
      // A live stream opened with the key looks again, on every process.
      ctx.sessions.onEnded(caller.id);
      return c.body(null, 204);
    },
  );
  return app;
}
