import { Hono } from 'hono';
import { mayUploadFirmware } from '../../contracts/access-policy.ts';
import {
  firmwareImageSchema,
  firmwareKeysSchema,
  firmwareListQuerySchema,
  firmwareListSchema,
  firmwareUploadQuerySchema,
} from '../../contracts/firmware.ts';
import { type FirmwareImage, FirmwareImageError } from '../../src/codec/firmware/image-types.ts';
import { firmwareModelsOf, mayReadFirmwareOf } from '../access/firmware-access.ts';
import { idParams } from '../config-service/params.ts';
import type { ServerContext } from '../context.ts';
import { ApiError, forbidden, notFound } from '../http/errors.ts';
import type { AuthVariables } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { describeRoute } from '../openapi/route-notes.ts';
import { catalogueIn } from '../service-comms/catalogue-commands.ts';
import { checkSignedImage } from './check-image.ts';
import { firmwareInvalid, imageWithBytes, listImages, storeImage } from './firmware-store.ts';

const tooLarge = (max: number) =>
  new ApiError(413, 'firmware_too_large', `A firmware image may have at most ${max} bytes`);

/**
 * Reads an upload's body as it arrives: each chunk goes through the Wasm parser (hash, structure)
 * and is kept; past `max` bytes, or once the parser refuses, reading stops.
 */
async function readUpload(
  body: ReadableStream<Uint8Array> | null,
  reader: ReturnType<ServerContext['firmware']['codec']['readImage']>,
  max: number,
): Promise<{ image: FirmwareImage; bytes: Uint8Array }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const stream = body?.getReader();
  try {
    for (let next = await stream?.read(); next && !next.done; next = await stream?.read()) {
      size += next.value.length;
      if (size > max) throw tooLarge(max);
      reader.push(next.value);
      chunks.push(next.value);
    }
    const image = reader.finish();
    return { image, bytes: Buffer.concat(chunks, size) };
  } catch (error) {
    await stream?.cancel().catch(() => {});
    if (error instanceof FirmwareImageError) throw firmwareInvalid(error.message);
    throw error;
  }
}

/**
 * Firmware images, mounted at `/fleet`: company staff upload signed MCUboot images; whoever may
 * update a device of a model lists that model's images and downloads them.
 */
export function firmwareRoutes(ctx: ServerContext, publicDir: string): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  const catalogue = catalogueIn(publicDir);

  app.post(
    '/firmware',
    describeRoute({
      summary: 'Upload a signed MCUboot firmware image for one model',
      tag: 'firmware',
      binaryBody: {
        contentType: 'application/octet-stream',
        description: 'The image file: an MCUboot image signed with a trusted Ed25519 key (docs/api.md)',
      },
      responses: {
        201: { description: 'The image, stored', schema: firmwareImageSchema },
        400: {
          description:
            'firmware_invalid: not an MCUboot image, a wrong size, a hash that does not match, a TLV missing, another model, an untrusted key, a bad signature, or a version uploaded already',
        },
        403: { description: 'Only company staff upload firmware' },
        413: { description: 'firmware_too_large: the image passes FIRMWARE_MAX_BYTES' },
        415: { description: 'The body is not application/octet-stream' },
      },
    }),
    validate('query', firmwareUploadQuerySchema),
    async (c) => {
      const principal = c.get('principal');
      if (!mayUploadFirmware(principal)) throw forbidden('Only company staff upload firmware images');
      const { model, channel } = c.req.valid('query');
      if (!(await catalogue(model)))
        throw new ApiError(400, 'invalid_input', `model: ${model} is not a model of the catalogue`, 'model');
      const type = c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase();
      if (type !== 'application/octet-stream')
        throw new ApiError(415, 'unsupported_media_type', 'Send the image as application/octet-stream');
      const max = ctx.env.FIRMWARE_MAX_BYTES;
      const declared = Number(c.req.header('content-length'));
      if (Number.isFinite(declared) && declared > max) throw tooLarge(max);
      const { image, bytes } = await readUpload(c.req.raw.body, ctx.firmware.codec.readImage(), max);
      checkSignedImage(image, model, ctx.firmware.trust);
      const stored = await storeImage(ctx.db, image, bytes, channel, principal.id);
      console.log(
        `[firmware] ${principal.id} uploaded ${stored.modelId} ${stored.version} (${stored.channel})`,
      );
      return c.json(stored, 201);
    },
  );

  app.get(
    '/firmware',
    describeRoute({
      summary: 'Firmware images of the models the caller may update, newest first',
      tag: 'firmware',
      responses: { 200: { description: 'The images', schema: firmwareListSchema } },
    }),
    validate('query', firmwareListQuerySchema),
    async (c) => {
      const { model } = c.req.valid('query');
      const models = await firmwareModelsOf(ctx.db, c.get('principal'));
      return c.json({ images: await listImages(ctx.db, models, model) });
    },
  );

  app.get(
    '/firmware/keys',
    describeRoute({
      summary: 'The public keys firmware images must be signed with (what a device trusts)',
      tag: 'firmware',
      responses: { 200: { description: 'The keys', schema: firmwareKeysSchema } },
    }),
    (c) =>
      c.json({
        keys: [...ctx.firmware.trust.keys].map(([keyHash, key]) => ({
          keyHash,
          publicKey: key.export({ type: 'spki', format: 'der' }).toString('base64'),
        })),
      }),
  );

  app.get(
    '/firmware/:id/image',
    describeRoute({
      summary: "An image's bytes, for whoever may update a device of its model",
      tag: 'firmware',
      responses: {
        200: { description: 'The image file', contentType: 'application/octet-stream' },
        404: { description: 'No such image, or one of a model the caller may not update' },
      },
    }),
    validate('param', idParams),
    async (c) => {
      const { id } = c.req.valid('param');
      const models = await firmwareModelsOf(ctx.db, c.get('principal'));
      const image = await imageWithBytes(ctx.db, id);
      if (!image || !mayReadFirmwareOf(models, image.modelId)) throw notFound('Firmware image');
      return c.body(new Uint8Array(image.bytes), 200, {
        'Content-Type': 'application/octet-stream',
        'Content-Length': String(image.bytes.length),
        'Content-Disposition': `attachment; filename="${image.modelId}-${image.version}.bin"`,
        ETag: `"${image.sha256}"`,
        'Cache-Control': 'private, no-cache',
      });
    },
  );
  return app;
}
