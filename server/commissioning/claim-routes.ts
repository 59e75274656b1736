import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Actor } from '../../contracts/access-policy.ts';
import { CLAIMED_ELSEWHERE, claimedElsewhereMessage } from '../../contracts/claims.ts';
import { idParamSchema } from '../../contracts/ids.ts';
import { type ClaimedDevice, claimedDeviceSchema, claimRequestSchema } from '../../contracts/installs.ts';
import { requireInstallSite } from '../access/install-access.ts';
import { sameCompany } from '../access/site-company.ts';
import { hitRateLimit } from '../auth/rate-limit.ts';
import type { ServerContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { clientAddress } from '../http/client-address.ts';
import { ApiError } from '../http/errors.ts';
import type { AuthVariables } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { limitChecks } from '../limits/request-limits.ts';
import { describeRoute } from '../openapi/route-notes.ts';
import { claimNotMatched, matchClaim } from './claim-codes.ts';
import { recordAudit } from './install-audit.ts';
import { modelFor, requireFreeSerial } from './install-routes.ts';
import { asDevice, holdSite, insertDevice, siteOfSerial, uniqueSerial } from './install-store.ts';
import type { ProductCatalogue } from './product-catalogue.ts';

const siteParams = z.object({ siteId: idParamSchema });

/**
 * Refuse a serial that is on a site already. One of another company's sites is not named, nor
 * is the company: the device is theirs until they take it off. One of this company's sites is
 * told as any install is (named to a caller who sees it).
 * @throws {ApiError} 409 `device_claimed_elsewhere`, `device_installed_elsewhere` or `device_already_installed`.
 */
async function requireUnclaimed(db: Kysely<Database>, viewer: Actor, serial: string, siteId: number) {
  const held = await siteOfSerial(db, serial);
  if (held && !(await sameCompany(db, held.siteId, siteId)))
    throw new ApiError(409, CLAIMED_ELSEWHERE, claimedElsewhereMessage(serial), 'serial');
  await requireFreeSerial(db, viewer, serial, siteId);
}

/**
 * Claiming a device for a site, mounted at `/fleet`: the serial and claim code from its label
 * put it on the site; no secret changes hands (the device is given one over Bluetooth).
 */
export function claimRoutes(
  ctx: ServerContext,
  catalogue: ProductCatalogue,
): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  const { db } = ctx;

  app.post(
    '/sites/:siteId/claims',
    describeRoute({
      summary: 'Claim a device for a site with the serial and claim code on its label',
      limits: ['claimPerUser', 'claimPerAddress'],
      tag: 'installs',
      example: { serial: 'HX5K-26-080001', claimCode: 'K7M2-Q9XD-4TRW-8HNB', name: 'Garage inverter' },
      responses: {
        201: { description: 'The device, on the site', schema: claimedDeviceSchema },
        400: {
          description:
            'The serial and claim code do not belong together, or the serial is unknown: one answer (claim_not_matched)',
        },
        403: { description: 'The caller sees the site without the installer role' },
        404: { description: 'No such site, or one the caller cannot see' },
        409: {
          description:
            "On another company's site (device_claimed_elsewhere, naming neither), or on one of this company's (device_installed_elsewhere)",
        },
        429: { description: 'Too many claims from this user or address (rate_limited)' },
      },
    }),
    validate('param', siteParams),
    validate('json', claimRequestSchema),
    async (c) => {
      const principal = c.get('principal');
      await hitRateLimit(
        ctx,
        limitChecks('claim', {
          claimPerUser: principal.id,
          claimPerAddress: clientAddress(c, ctx.env.TRUST_PROXY),
        }),
      );
      const { siteId } = c.req.valid('param');
      const body = c.req.valid('json');
      const site = await requireInstallSite(db, principal, siteId);
      const registration = await matchClaim(db, body.serial, body.claimCode);
      if (!registration) throw claimNotMatched();
      const entry = await modelFor(catalogue, registration.modelId, registration.serial);
      await requireUnclaimed(db, principal, body.serial, siteId);
      const claimed = await uniqueSerial(
        () =>
          db.transaction().execute(async (trx): Promise<ClaimedDevice> => {
            await holdSite(trx, siteId);
            const row = await insertDevice(trx, {
              model_id: registration.modelId,
              serial: registration.serial,
              name: body.name ?? entry.name,
              site_id: siteId,
              claimed_at: new Date(),
            });
            await recordAudit(trx, principal, {
              action: 'installed',
              site,
              serial: row.serial,
              modelId: row.model_id,
              newName: row.name,
            });
            return {
              ...asDevice(row, site.name),
              claimedAt: new Date(row.claimed_at ?? Date.now()).toISOString(),
            };
          }),
        () =>
          requireUnclaimed(db, principal, body.serial, siteId).then(() => {
            throw new ApiError(409, 'device_installed_elsewhere', `${body.serial} is installed already`);
          }),
      );
      return c.json(claimed, 201);
    },
  );
  return app;
}
