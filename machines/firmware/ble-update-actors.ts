import { fromCallback, fromPromise } from 'xstate';
import type { SmpTransport } from '../../src/ble/smp-link.ts';
import { type SmpLink, smpExchange } from '../../src/ble/smp-link.ts';
import { TransportError } from '../../src/ble/transport-error.ts';
import type { FirmwareCodec } from '../../src/codec/firmware/image-types.ts';
import { FirmwareImageError } from '../../src/codec/firmware/image-types.ts';
import { chunkDataSize, SmpClient } from '../../src/smp/smp-client.ts';
import {
  readDoneAnswer,
  readImageState,
  readImageStateAnswer,
  readParams,
  readParamsAnswer,
  readUploadAnswer,
  resetDevice,
  uploadChunk,
  writeImageState,
} from '../../src/smp/smp-commands.ts';
import type {
  BleUpdateEvent,
  DeviceFacts,
  FirmwareOffer,
  PreparedImage,
  UploadInput,
} from './ble-update-machine.ts';

type Pause = (ms: number) => Promise<void>;
const pauseFor: Pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export interface BleUpdateActorOptions {
  firmware: FirmwareCodec;
  /** The device's model: an image for another one is refused before anything is sent. */
  modelId: string;
  /** The image file's bytes, from the service. */
  download: (offer: FirmwareOffer) => Promise<Uint8Array>;
  /** Attempts to connect again after a drop or a restart, and the wait between them. */
  reconnect?: { attempts: number; waitMs: number };
  pause?: Pause;
  now?: () => number;
}

const clientOf = (link: SmpLink) => new SmpClient(smpExchange(link));

/** The running image's version from a state read (slot 0 of image 0). */
async function running(link: SmpLink): Promise<string> {
  const slots = readImageStateAnswer(await clientOf(link).request(readImageState()));
  const active = slots.find((s) => s.image === 0 && s.slot === 0) ?? slots.find((s) => s.active);
  if (!active) throw new Error('The device did not say which firmware it runs.');
  return active.version;
}

/**
 * Sends the image from the device's own offset: the first chunk (offset 0, with `len` and `sha`)
 * is answered with where the device stands, so an upload cut by a dropped link goes on from there.
 */
async function uploadImage(
  { link, image, bufSize }: UploadInput,
  report: (event: BleUpdateEvent) => void,
  now: () => number,
  stopped: () => boolean,
): Promise<void> {
  const client = clientOf(link);
  const { bytes, fileSha } = image;
  const firstSize = chunkDataSize(bufSize, { off: 0, len: bytes.length, sha: fileSha });
  if (firstSize <= 0) throw new Error(`The device's buffer (${bufSize} bytes) is too small for an upload.`);
  let off = readUploadAnswer(
    await client.request(
      uploadChunk({ off: 0, len: bytes.length, sha: fileSha, data: bytes.subarray(0, firstSize) }),
    ),
  ).off;
  report({ type: 'upload.started', off, at: now() });
  while (off < bytes.length && !stopped()) {
    const data = bytes.subarray(off, off + chunkDataSize(bufSize, { off }));
    const next = readUploadAnswer(await client.request(uploadChunk({ off, data }))).off;
    if (next > bytes.length) throw new Error('The device acknowledged more bytes than the image has.');
    off = next;
    report({ type: 'upload.progress', off, at: now() });
  }
}

/**
 * The I/O of the firmware update machine over an SMP link.
 * @example bleUpdateMachine.provide({ actors: createBleUpdateActors({ firmware, modelId, download }) })
 */
export function createBleUpdateActors(options: BleUpdateActorOptions) {
  const pause = options.pause ?? pauseFor;
  const now = options.now ?? Date.now;
  const { attempts, waitMs } = options.reconnect ?? { attempts: 8, waitMs: 1500 };
  return {
    prepare: fromPromise<PreparedImage, { offer: FirmwareOffer }>(async ({ input }) => {
      const bytes = await options.download(input.offer);
      let image: ReturnType<FirmwareCodec['parseImage']>;
      try {
        image = options.firmware.parseImage(bytes);
      } catch (error) {
        if (!(error instanceof FirmwareImageError)) throw error;
        throw new Error(
          `The image was refused before anything was sent to the device: ${error.message.replace(/\.$/, '')}.`,
        );
      }
      if (image.modelId !== options.modelId)
        throw new Error(
          `The image was refused before anything was sent to the device: it is for model ${image.modelId}, not ${options.modelId}.`,
        );
      return {
        bytes,
        fileSha: options.firmware.sha256(bytes),
        hash: image.sha256,
        version: image.versionText,
      };
    }),
    connect: fromPromise<SmpLink | null, { transport: SmpTransport; namePrefix: string }>(
      async ({ input }) => {
        const link = await input.transport.choose(input.namePrefix);
        if (link) await link.connect();
        return link;
      },
    ),
    inspect: fromPromise<DeviceFacts, { link: SmpLink }>(async ({ input }) => {
      const { bufSize } = readParamsAnswer(await clientOf(input.link).request(readParams()));
      return { bufSize, running: await running(input.link) };
    }),
    upload: fromCallback<BleUpdateEvent, UploadInput>(({ input, sendBack }) => {
      let stopped = false;
      uploadImage(
        input,
        (event) => !stopped && sendBack(event),
        now,
        () => stopped,
      ).then(
        () => !stopped && sendBack({ type: 'upload.done' }),
        (error: unknown) => {
          if (stopped) return;
          if (error instanceof TransportError && error.kind === 'disconnected')
            sendBack({ type: 'upload.lost' });
          else
            sendBack({
              type: 'upload.failed',
              message: error instanceof Error ? error.message : String(error),
            });
        },
      );
      return () => {
        stopped = true;
      };
    }),
    reconnect: fromPromise<void, { link: SmpLink }>(async ({ input, signal }) => {
      for (let attempt = 1; ; attempt += 1) {
        try {
          await input.link.connect();
          return;
        } catch (error) {
          if (attempt >= attempts || signal.aborted) throw error;
          await pause(waitMs);
        }
      }
    }),
    markForTest: fromPromise<void, { link: SmpLink; hash: Uint8Array }>(async ({ input }) => {
      readImageStateAnswer(
        await clientOf(input.link).request(writeImageState({ hash: input.hash, confirm: false })),
      );
    }),
    reset: fromPromise<void, { link: SmpLink }>(async ({ input }) => {
      readDoneAnswer(await clientOf(input.link).request(resetDevice()));
    }),
    readRunning: fromPromise<string, { link: SmpLink }>(async ({ input }) => running(input.link)),
    confirm: fromPromise<void, { link: SmpLink }>(async ({ input }) => {
      readImageStateAnswer(await clientOf(input.link).request(writeImageState({ confirm: true })));
    }),
  };
}
