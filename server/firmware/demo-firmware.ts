import { createHash } from 'node:crypto';
import { DEMO_FIRMWARE } from '../../contracts/firmware.ts';
import type { ServerContext } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import { checkSignedImage } from './check-image.ts';
import { storeImage } from './firmware-store.ts';
import { parseVersion, signImage } from './sign-image.ts';

/** Bytes of each demo image's payload. */
const DEMO_PAYLOAD_BYTES = 48 * 1024;

/** A demo payload: bytes that differ per model and version (a SHA-256 chain), not a real program. */
function demoPayload(modelId: string, version: string): Buffer {
  const payload = Buffer.alloc(DEMO_PAYLOAD_BYTES);
  let block = createHash('sha256').update(`${modelId} ${version}`).digest();
  for (let at = 0; at < payload.length; at += block.length) {
    block.copy(payload, at);
    block = createHash('sha256').update(block).digest();
  }
  return payload;
}

/**
 * The demo's newer firmware (`DEMO_FIRMWARE.offered`) for each model the demo's devices are, on
 * the stable channel: signed now with the development key (none is committed), checked and stored
 * as an upload is. Without a development key (a deployment names its keys) the demo ships none.
 */
export async function seedDemoFirmware(ctx: ServerContext): Promise<void> {
  const key = ctx.firmware.trust.development?.privateKey;
  if (!key) return;
  const models = await ctx.db
    .selectFrom('devices')
    .select('model_id')
    .distinct()
    .orderBy('model_id')
    .execute();
  const shipped = await ctx.db
    .selectFrom('firmware_images')
    .select('model_id')
    .where('version', '=', DEMO_FIRMWARE.offered)
    .execute();
  const done = new Set(shipped.map((row) => row.model_id));
  for (const { model_id: modelId } of models.filter((row) => !done.has(row.model_id))) {
    const bytes = signImage({
      key,
      modelId,
      version: parseVersion(DEMO_FIRMWARE.offered),
      payload: demoPayload(modelId, DEMO_FIRMWARE.offered),
    });
    const image = ctx.firmware.codec.parseImage(bytes);
    checkSignedImage(image, modelId, ctx.firmware.trust);
    try {
      await storeImage(ctx.db, image, bytes, 'stable', null);
    } catch (error) {
      // Processes started together on one database: another one stored it first.
      if (!(error instanceof ApiError && error.code === 'firmware_invalid')) throw error;
    }
  }
}
