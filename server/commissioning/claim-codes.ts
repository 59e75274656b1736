import type { Kysely } from 'kysely';
import { CLAIM_CODE_NEEDED, CLAIM_NOT_MATCHED, normalizeClaimCode } from '../../contracts/claims.ts';
import { safeEqual, sha256 } from '../auth/secrets.ts';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';

/**
 * The stored form of a claim code: the SHA-256 (hex) of its normalised characters. A code carries
 * 80 random bits, so its hash is as safe to keep as a random token's; a manufacturing list may
 * ship the hashes instead of the codes.
 * @example claimCodeHash('k7m2-q9xd-4trw-8hnb') === claimCodeHash('K7M2Q9XD4TRW8HNB') // true
 */
export function claimCodeHash(code: string): string {
  return sha256(normalizeClaimCode(code));
}

/** A serial's registration, when its claim code matched. */
export interface Registration {
  serial: string;
  modelId: string;
}

/** Compared against when a serial is not registered, so that it costs what a wrong code costs. */
const NO_HASH = sha256('no registration');

/**
 * The registration of `serial` when `code` is its claim code, else null: an unknown serial and a
 * wrong code are one answer, reached by the same work (a hash and a constant-time comparison).
 */
export async function matchClaim(
  db: Kysely<Database>,
  serial: string,
  code: string,
): Promise<Registration | null> {
  const row = await db
    .selectFrom('device_registrations')
    .select(['serial', 'model_id', 'claim_code_hash'])
    .where('serial', '=', serial)
    .executeTakeFirst();
  const matches = safeEqual(claimCodeHash(code), row?.claim_code_hash ?? NO_HASH);
  return row && matches ? { serial: row.serial, modelId: row.model_id } : null;
}

/** Whether a serial is on a manufacturing list (and so is put on a site with its claim code only). */
export async function isRegistered(db: Kysely<Database>, serial: string): Promise<boolean> {
  const row = await db
    .selectFrom('device_registrations')
    .select('serial')
    .where('serial', '=', serial)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The refusal of a serial and claim code that do not go together, the same whether the serial is
 * unknown or the code wrong: it says neither which, nor whether the serial exists.
 */
export function claimNotMatched(): ApiError {
  return new ApiError(
    400,
    CLAIM_NOT_MATCHED,
    'claimCode: this serial number and claim code do not belong together; check both on the label',
    'claimCode',
  );
}

/**
 * Whether a device put on a site by serial (an install or a replacement) is claimed with its
 * code: a serial of a manufacturing list needs its claim code, and a code given must be its own.
 * A serial on no list, given without a code, is put on by serial alone (devices made before
 * claim codes).
 * @throws {ApiError} 400 `claim_not_matched` for a code that is not the serial's; 409
 *   `claim_code_needed` for a registered serial without one.
 */
export async function claimWith(
  db: Kysely<Database>,
  serial: string,
  code: string | undefined,
): Promise<boolean> {
  if (code !== undefined) {
    if (!(await matchClaim(db, serial, code))) throw claimNotMatched();
    return true;
  }
  if (await isRegistered(db, serial))
    throw new ApiError(
      409,
      CLAIM_CODE_NEEDED,
      `${serial} has a claim code on its label: give it with the serial number`,
      'claimCode',
    );
  return false;
}
