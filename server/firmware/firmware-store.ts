import type { Kysely, Selectable } from 'kysely';
import type { FirmwareChannel, FirmwareImageInfo } from '../../contracts/firmware.ts';
import type { FirmwareImage } from '../../src/codec/firmware/image-types.ts';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';

type ImageRow = Selectable<Database['firmware_images']>;

export const toFirmwareInfo = (row: ImageRow): FirmwareImageInfo => ({
  id: row.id,
  modelId: row.model_id,
  version: row.version,
  sha256: row.sha256,
  size: row.size,
  channel: row.channel as FirmwareChannel,
  uploadedAt: new Date(row.uploaded_at).toISOString(),
});

/** 400 `firmware_invalid`: the one answer for an image the fleet refuses, naming the reason. */
export const firmwareInvalid = (message: string) => new ApiError(400, 'firmware_invalid', message);

const versionTaken = (image: FirmwareImage) =>
  firmwareInvalid(`version ${image.versionText} of ${image.modelId} is uploaded already`);

/**
 * Stores a checked image: its bytes once by SHA-256, and its row. A version of a model is
 * uploaded once; two uploads of one version at once leave one row and a 400 for the other.
 * @throws {ApiError} 400 `firmware_invalid` when the model has that version already.
 */
export async function storeImage(
  db: Kysely<Database>,
  image: FirmwareImage,
  bytes: Uint8Array,
  channel: FirmwareChannel,
  uploadedBy: number | null,
): Promise<FirmwareImageInfo> {
  const sha256 = Buffer.from(image.sha256).toString('hex');
  try {
    return await db.transaction().execute(async (trx) => {
      const taken = await trx
        .selectFrom('firmware_images')
        .select('id')
        .where('model_id', '=', image.modelId)
        .where('version', '=', image.versionText)
        .executeTakeFirst();
      if (taken) throw versionTaken(image);
      await trx
        .insertInto('firmware_blobs')
        .values({ sha256, size: bytes.length, bytes })
        .onConflict((oc) => oc.column('sha256').doNothing())
        .execute();
      const row = await trx
        .insertInto('firmware_images')
        .values({
          model_id: image.modelId,
          version: image.versionText,
          sha256,
          size: bytes.length,
          channel,
          uploaded_by: uploadedBy,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toFirmwareInfo(row);
    });
  } catch (error) {
    // The unique (model, version) constraint: another upload of this version committed first.
    if ((error as { code?: string }).code === '23505') throw versionTaken(image);
    throw error;
  }
}

/** Images of the given models (every model for 'all'), newest upload first. */
export async function listImages(
  db: Kysely<Database>,
  models: 'all' | Set<string>,
  model: string | undefined,
): Promise<FirmwareImageInfo[]> {
  if (models !== 'all' && models.size === 0) return [];
  let query = db
    .selectFrom('firmware_images')
    .selectAll()
    .orderBy('uploaded_at', 'desc')
    .orderBy('id', 'desc');
  if (model !== undefined) query = query.where('model_id', '=', model);
  if (models !== 'all') query = query.where('model_id', 'in', [...models]);
  return (await query.execute()).map(toFirmwareInfo);
}

/** One image's row and bytes, or undefined. */
export async function imageWithBytes(
  db: Kysely<Database>,
  id: number,
): Promise<(FirmwareImageInfo & { bytes: Uint8Array }) | undefined> {
  const row = await db
    .selectFrom('firmware_images')
    .innerJoin('firmware_blobs', 'firmware_blobs.sha256', 'firmware_images.sha256')
    .selectAll('firmware_images')
    .select('firmware_blobs.bytes')
    .where('firmware_images.id', '=', id)
    .executeTakeFirst();
  return row ? { ...toFirmwareInfo(row), bytes: row.bytes } : undefined;
}
