import type { Kysely } from 'kysely';
import { claimCodeSchema } from '../../contracts/claims.ts';
import { installSerialSchema } from '../../contracts/installs.ts';
import type { Database } from '../db/schema.ts';
import type { CatalogueLookup } from '../service-comms/catalogue-commands.ts';
import { claimCodeHash } from './claim-codes.ts';

/** One device of a manufacturing list: its serial, model and claim-code hash. */
export interface ManufacturedDevice {
  serial: string;
  modelId: string;
  claimCodeHash: string;
}

/** A list read: its devices, or what is wrong with it, line by line. */
export type ListReading = { ok: true; devices: ManufacturedDevice[] } | { ok: false; problems: string[] };

const HASH = /^[0-9a-f]{64}$/;

/** A CSV line's fields; a field may be quoted (`"HX5K-24-000123"`). */
function fields(line: string): string[] {
  return line.split(',').map((field) =>
    field
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .trim(),
  );
}

/**
 * Read a manufacturing list: CSV with a header naming the columns `serial`, `model` and either
 * `claim_code` (the code as printed; only its hash is kept) or `claim_code_sha256` (the SHA-256,
 * hex, of the code's 16 characters without dashes, upper case). Every line is checked against
 * the catalogue (a model it has, a serial with that model's prefix); one bad line refuses the
 * whole list, naming every bad line.
 * @example await readManufacturingList('serial,model,claim_code\nHX5K-26-000901,HX-5000,K7M2-Q9XD-4TRW-8HNB', catalogue)
 */
export async function readManufacturingList(text: string, catalogue: CatalogueLookup): Promise<ListReading> {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const headerAt = lines.findIndex((line) => line.trim() !== '');
  if (headerAt === -1) return { ok: false, problems: ['the list is empty'] };
  const header = fields(lines[headerAt] ?? '').map((name) => name.toLowerCase());
  const at = (name: string) => header.indexOf(name);
  const [serialAt, modelAt, codeAt, hashAt] = [
    at('serial'),
    Math.max(at('model'), at('model_id')),
    at('claim_code'),
    at('claim_code_sha256'),
  ];
  if (serialAt === -1 || modelAt === -1 || (codeAt === -1) === (hashAt === -1))
    return {
      ok: false,
      problems: [
        `line ${headerAt + 1}: the header names the columns serial, model and one of claim_code or claim_code_sha256`,
      ],
    };
  const problems: string[] = [];
  const devices: ManufacturedDevice[] = [];
  const seen = new Set<string>();
  for (const [index, line] of lines.entries()) {
    if (index <= headerAt || line.trim() === '') continue;
    const where = `line ${index + 1}`;
    const row = fields(line);
    const serial = installSerialSchema.safeParse(row[serialAt] ?? '');
    const modelId = row[modelAt] ?? '';
    if (!serial.success) {
      problems.push(
        `${where}: "${(row[serialAt] ?? '').slice(0, 40)}" is not a serial number such as HX5K-24-000123`,
      );
      continue;
    }
    let hash: string;
    if (codeAt !== -1) {
      const code = claimCodeSchema.safeParse(row[codeAt] ?? '');
      if (!code.success) {
        problems.push(
          `${where}: the claim code of ${serial.data} is not 16 characters such as K7M2-Q9XD-4TRW-8HNB`,
        );
        continue;
      }
      hash = claimCodeHash(code.data);
    } else {
      hash = (row[hashAt] ?? '').toLowerCase();
      if (!HASH.test(hash)) {
        problems.push(`${where}: the claim_code_sha256 of ${serial.data} is not 64 hexadecimal digits`);
        continue;
      }
    }
    const entry = await catalogue(modelId);
    if (!entry) problems.push(`${where}: ${modelId || 'an empty model'} is not a model of the catalogue`);
    else if (!serial.data.startsWith(`${entry.serialPrefix}-`))
      problems.push(
        `${where}: ${serial.data} is not a ${modelId} serial number (they start with ${entry.serialPrefix}-)`,
      );
    else if (seen.has(serial.data)) problems.push(`${where}: ${serial.data} is listed twice`);
    else {
      seen.add(serial.data);
      devices.push({ serial: serial.data, modelId, claimCodeHash: hash });
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  if (devices.length === 0) return { ok: false, problems: ['the list has no devices'] };
  return { ok: true, devices };
}

/** What registering a list did. */
export interface Registered {
  /** Serials new to the service. */
  added: number;
  /** Serials it knew already with the same model and code. */
  same: number;
  /** Serials it knew with another model or code: kept as they were, or taken from the list with `replace`. */
  differing: string[];
}

/**
 * Register a manufacturing list's devices, in one transaction. A serial the service knows already
 * with another model or code keeps what it has unless `replace` (a relabelled unit): a list
 * registered twice changes nothing.
 */
export async function registerDevices(
  db: Kysely<Database>,
  devices: readonly ManufacturedDevice[],
  options: { replace?: boolean } = {},
): Promise<Registered> {
  return db.transaction().execute(async (trx) => {
    const known = new Map<string, { model_id: string; claim_code_hash: string }>();
    const result: Registered = { added: 0, same: 0, differing: [] };
    for (let start = 0; start < devices.length; start += 1000) {
      const batch = devices.slice(start, start + 1000);
      const rows = await trx
        .selectFrom('device_registrations')
        .select(['serial', 'model_id', 'claim_code_hash'])
        .where(
          'serial',
          'in',
          batch.map((device) => device.serial),
        )
        .execute();
      for (const row of rows) known.set(row.serial, row);
      const values = batch.map((device) => ({
        serial: device.serial,
        model_id: device.modelId,
        claim_code_hash: device.claimCodeHash,
      }));
      await trx
        .insertInto('device_registrations')
        .values(values)
        .onConflict((oc) =>
          options.replace
            ? oc.column('serial').doUpdateSet((eb) => ({
                model_id: eb.ref('excluded.model_id'),
                claim_code_hash: eb.ref('excluded.claim_code_hash'),
              }))
            : oc.column('serial').doNothing(),
        )
        .execute();
    }
    for (const device of devices) {
      const had = known.get(device.serial);
      if (!had) result.added += 1;
      else if (had.model_id === device.modelId && had.claim_code_hash === device.claimCodeHash)
        result.same += 1;
      else result.differing.push(device.serial);
    }
    return result;
  });
}
