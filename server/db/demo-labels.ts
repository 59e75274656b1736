import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { printedClaimCode } from '../../contracts/claims.ts';
import { claimCodeHash } from '../commissioning/claim-codes.ts';
import type { Database } from './schema.ts';
import { demoSerial, SEED_MODELS } from './seed-places.ts';

/** Crockford's base-32 digits, as claim codes use them. */
const BASE32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * The demo's claim code of a serial: published with the demo (like its sign-ins), so it is made
 * from the serial rather than drawn at random. A real manufacturing list's codes are random.
 */
export function demoClaimCode(serial: string): string {
  const bytes = createHash('sha256').update(`fleet-manager demo label ${serial}`).digest();
  let bits = 0;
  let value = 0;
  let code = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && code.length < 16) {
      code += BASE32[(value >> (bits - 5)) & 31];
      bits -= 5;
    }
    if (code.length === 16) break;
  }
  return code;
}

/** A demo unit not on any site yet, with its label: serial, model and claim code as printed. */
export interface DemoLabel {
  serial: string;
  modelId: string;
  claimCode: string;
}

/** The demo's spare units (three of each seeded model), to be claimed for a site. */
export function demoLabels(): DemoLabel[] {
  return SEED_MODELS.flatMap((model) =>
    [1, 2, 3].map((n) => {
      const serial = demoSerial(model.prefix, 26, 80_000 + n);
      return { serial, modelId: model.modelId, claimCode: printedClaimCode(demoClaimCode(serial)) };
    }),
  );
}

/** The demo's manufacturing list: its spare units are registered (once; a later start finds them). */
export async function registerDemoLabels(db: Kysely<Database>): Promise<void> {
  await db
    .insertInto('device_registrations')
    .values(
      demoLabels().map((label) => ({
        serial: label.serial,
        model_id: label.modelId,
        claim_code_hash: claimCodeHash(label.claimCode),
      })),
    )
    .onConflict((oc) => oc.column('serial').doNothing())
    .execute();
}
