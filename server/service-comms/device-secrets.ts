import { type Kysely, sql } from 'kysely';
import { newOpaqueToken, safeEqual, sha256 } from '../auth/secrets.ts';
import type { Database } from '../db/schema.ts';

/** A registered device as the socket sees it. */
export interface RegisteredDevice {
  id: number;
  serial: string;
  modelId: string;
}

/** What checking a device's hello found. */
export type SecretCheck =
  | { ok: true; device: RegisteredDevice }
  | { ok: false; reason: 'unknown_serial' | 'wrong_secret' };

/**
 * Issue a new secret for a device, replacing any earlier one (which stops working at once). The
 * secret is 32 random bytes (base64url); only its SHA-256 is stored, so it is shown once.
 * @example const secret = await issueDeviceSecret(db, device.id);
 */
export async function issueDeviceSecret(db: Kysely<Database>, deviceId: number): Promise<string> {
  const secret = newOpaqueToken();
  await db
    .insertInto('device_secrets')
    .values({ device_id: deviceId, secret_hash: sha256(secret) })
    .onConflict((oc) =>
      oc.column('device_id').doUpdateSet({ secret_hash: sha256(secret), issued_at: sql`now()` }),
    )
    .execute();
  return secret;
}

/** Check a device's serial number and secret. A device without a secret never passes. */
export async function checkDeviceSecret(
  db: Kysely<Database>,
  serial: string,
  secret: string,
): Promise<SecretCheck> {
  const row = await db
    .selectFrom('devices')
    .leftJoin('device_secrets', 'device_secrets.device_id', 'devices.id')
    .select(['devices.id', 'devices.serial', 'devices.model_id', 'device_secrets.secret_hash'])
    .where('devices.serial', '=', serial)
    .executeTakeFirst();
  // Hashed either way, so that an unknown serial takes the same work as a wrong secret.
  const given = sha256(secret);
  if (!row) return { ok: false, reason: 'unknown_serial' };
  if (!row.secret_hash || !safeEqual(given, row.secret_hash)) return { ok: false, reason: 'wrong_secret' };
  return { ok: true, device: { id: row.id, serial: row.serial, modelId: row.model_id } };
}

/** A device of the demo whose secret is kept so that `npm start` can run it as a simulated device. */
export interface DemoDeviceSecret {
  serialNumber: string;
  modelId: string;
  secret: string;
}

/** Give every device without a secret one (the seeded devices); the secrets themselves are not kept. */
export async function issueMissingSecrets(db: Kysely<Database>): Promise<void> {
  const devices = await db
    .selectFrom('devices')
    .leftJoin('device_secrets', 'device_secrets.device_id', 'devices.id')
    .select('devices.id')
    .where('device_secrets.device_id', 'is', null)
    .orderBy('devices.id')
    .execute();
  for (let start = 0; start < devices.length; start += 500) {
    const batch = devices.slice(start, start + 500);
    await db
      .insertInto('device_secrets')
      .values(batch.map((device) => ({ device_id: device.id, secret_hash: sha256(newOpaqueToken()) })))
      .execute();
  }
}

/** Issue new secrets for the first `count` devices (in id order) and answer them: the demo's simulated devices. */
export async function issueDemoSecrets(db: Kysely<Database>, count: number): Promise<DemoDeviceSecret[]> {
  const devices = await db
    .selectFrom('devices')
    .select(['id', 'serial', 'model_id'])
    .orderBy('id')
    .limit(count)
    .execute();
  const issued: DemoDeviceSecret[] = [];
  for (const device of devices)
    issued.push({
      serialNumber: device.serial,
      modelId: device.model_id,
      secret: await issueDeviceSecret(db, device.id),
    });
  return issued;
}
