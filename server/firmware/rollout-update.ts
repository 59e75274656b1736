import { chunkDataSize, SmpClient } from '../../src/smp/smp-client.ts';
import { SmpError } from '../../src/smp/smp-codes.ts';
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
import { SmpFrameError } from '../../src/smp/smp-frame.ts';
import type { SmpDelivery } from '../service-comms/delivery.ts';

/** The image a rollout sends: the file, its SHA-256 (the upload's `sha`), and its hash TLV (how SMP names it). */
export interface UpdateImage {
  bytes: Uint8Array;
  fileSha: Uint8Array;
  imageHash: Uint8Array;
  version: string;
}

/** Where one device's update got to. */
export type UpdateOutcome =
  | { state: 'confirmed'; version: string }
  | { state: 'testing'; version: string | null }
  | { state: 'reverted' | 'failed'; version: string | null; reason: string }
  | { state: 'offline'; reason: string };

/** The device went away mid-update: it goes on when it is back. */
class Unreachable extends Error {}
/** The device is connected and did not answer in time: a failure. */
class Silent extends SmpError {}

const same = (a: Uint8Array | undefined, b: Uint8Array) =>
  a !== undefined && a.length === b.length && a.every((byte, i) => byte === b[i]);

/**
 * One step of one device's update over SMP, as a Bluetooth central does it at the device:
 * - the device runs the image already: confirm it (it came back from its test start and answers);
 * - it was reset to test the image and runs another: MCUboot reverted it, unless the image is
 *   still marked for test (the reset never reached it): then it is reset again;
 * - else upload it (resuming where an earlier upload of the same image stopped), mark it for test
 *   and reset the device: it comes back with the new image (`testing`), and a next step confirms.
 * `exchange` sends one SMP message and answers the device's answer.
 */
export async function updateStep(
  exchange: (message: Uint8Array) => Promise<SmpDelivery>,
  image: UpdateImage,
  wasReset: boolean,
  onTesting: () => Promise<void>,
): Promise<UpdateOutcome> {
  const client = new SmpClient(async (message) => {
    const answer = await exchange(message);
    if (answer.ok) return answer.data;
    if (answer.code === 'device_offline') throw new Unreachable('the device went offline');
    // Connected and silent: a device that does not speak SMP, or has hung.
    throw new Silent(4, null, 'no answer in time');
  });
  let version: string | null = null;
  try {
    const slots = readImageStateAnswer(await client.request(readImageState()));
    const running = slots.find((slot) => slot.active) ?? slots.find((slot) => slot.slot === 0);
    version = running?.version ?? null;
    if (running && same(running.hash, image.imageHash)) {
      if (!running.confirmed) readImageStateAnswer(await client.request(writeImageState({ confirm: true })));
      return { state: 'confirmed', version: running.version };
    }
    // Marked for test and not started yet: the reset was lost (the link or the service went away
    // before it reached the device). Only an image that is no longer pending was reverted.
    const marked = slots.some((slot) => !slot.active && slot.pending && same(slot.hash, image.imageHash));
    if (wasReset && !marked)
      return {
        state: 'reverted',
        version,
        reason: `The device came back running ${version ?? 'another image'}: the new image did not come up, and the device went back to its old one`,
      };
    const waiting = slots.find((slot) => !slot.active && same(slot.hash, image.imageHash));
    if (!waiting) await upload(client, image);
    readImageStateAnswer(await client.request(writeImageState({ hash: image.imageHash, confirm: false })));
    await onTesting();
    try {
      readDoneAnswer(await client.request(resetDevice()));
    } catch (error) {
      // A device may restart before its answer is out.
      if (!(error instanceof Unreachable || error instanceof Silent)) throw error;
    }
    return { state: 'testing', version };
  } catch (error) {
    if (error instanceof Unreachable) return { state: 'offline', reason: error.message };
    if (error instanceof SmpError || error instanceof SmpFrameError)
      return { state: 'failed', version, reason: error.message };
    throw error;
  }
}

async function upload(client: SmpClient, image: UpdateImage): Promise<void> {
  const { bufSize } = readParamsAnswer(await client.request(readParams()));
  const len = image.bytes.length;
  let off = 0;
  // The first chunk names the image (len, sha): a device that holds part of it answers its offset.
  let first = true;
  // A device that keeps asking for offsets it had already would hold the rollout for ever.
  let left = 2 * Math.ceil(len / Math.max(1, chunkDataSize(bufSize, { off: len }))) + 16;
  for (; left > 0; left -= 1) {
    const header = first ? { off, len, sha: image.fileSha } : { off };
    const size = chunkDataSize(bufSize, header);
    if (size === 0) throw new SmpError(7, null, `a buffer of ${bufSize} bytes holds no image data`);
    const data = image.bytes.subarray(off, Math.min(len, off + size));
    const answer = readUploadAnswer(await client.request(uploadChunk({ ...header, data })));
    first = false;
    if (answer.match === true) return;
    if (answer.off >= len) throw new SmpError(3, null, 'the device took the whole image without checking it');
    off = answer.off;
  }
  throw new SmpError(4, null, 'the upload made no progress');
}
