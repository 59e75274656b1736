// The simulated device's SMP side: two slots, an upload that resumes at the device's offset, an
// image checked before it may run (model, hash, key, signature), test, reset, revert, confirm.
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseVersion, signImage } from '../../server/firmware/sign-image.ts';
import type { FirmwareCodec } from '../../src/codec/firmware/image-types.ts';
import { loadFirmwareCodec } from '../../src/codec/load-node.ts';
import { FirmwareKeyring } from '../../src/device-sim/firmware-keyring.ts';
import { SmpDevice } from '../../src/device-sim/smp-device.ts';
import { chunkDataSize, SmpClient } from '../../src/smp/smp-client.ts';
import { IMG_ERR, MGMT_ERR, SmpError } from '../../src/smp/smp-codes.ts';
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
import { encodeMessage } from '../../src/smp/smp-frame.ts';

const trusted = generateKeyPairSync('ed25519').privateKey;
const stranger = generateKeyPairSync('ed25519').privateKey;
const MODEL = 'hybrid5k';

let firmware: FirmwareCodec;
let keyring: FirmwareKeyring;
beforeAll(async () => {
  firmware = await loadFirmwareCodec();
  keyring = await FirmwareKeyring.of(firmware, [
    new Uint8Array(createPublicKey(trusted).export({ type: 'spki', format: 'der' })),
  ]);
});

function image(
  version: string,
  options: { model?: string; key?: typeof trusted; size?: number } = {},
): Uint8Array {
  const payload = new Uint8Array(options.size ?? 20_000).map((_, i) => (i * 31 + version.length) & 0xff);
  return new Uint8Array(
    signImage({
      key: options.key ?? trusted,
      modelId: options.model ?? MODEL,
      version: parseVersion(version),
      payload,
    }),
  );
}

/** A device and a client talking to it; `resets` counts the resets it answered. */
function connect(options: { healthy?: boolean } = {}) {
  const device = new SmpDevice({ firmware, keyring, modelId: MODEL, version: '1.0.0', ...options });
  let resets = 0;
  const client = new SmpClient(async (message) => {
    const reply = await device.handle(message);
    if (!reply) throw new Error('no answer');
    if (reply.reset) resets += 1;
    return reply.answer;
  });
  return { device, client, resets: () => resets };
}

type Client = ReturnType<typeof connect>['client'];

/** Uploads `bytes` from the device's own offset, stopping after `until` bytes if given. */
async function upload(client: Client, bytes: Uint8Array, until = bytes.length): Promise<number> {
  const { bufSize } = readParamsAnswer(await client.request(readParams()));
  const sha = firmware.sha256(bytes);
  let off = 0;
  let first = true;
  while (off < until) {
    const size = chunkDataSize(bufSize, first ? { off: 0, len: bytes.length, sha } : { off });
    const from = first ? 0 : off;
    const data = bytes.subarray(from, Math.min(from + size, until));
    const chunk = first ? { off: 0, len: bytes.length, sha, data } : { off, data };
    off = readUploadAnswer(await client.request(uploadChunk(chunk))).off;
    first = false;
  }
  return off;
}

async function state(client: Client) {
  return readImageStateAnswer(await client.request(readImageState()));
}

async function refusal(run: Promise<unknown>): Promise<SmpError> {
  const error = await run.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof SmpError)) throw new Error(`expected an SmpError, got ${String(error)}`);
  return error;
}

describe('the simulated device over SMP', () => {
  it('says its buffer and the factory image it runs, confirmed and active', async () => {
    const { client } = connect();
    expect(readParamsAnswer(await client.request(readParams()))).toEqual({ bufSize: 2475, bufCount: 4 });
    expect(await state(client)).toEqual([
      expect.objectContaining({ slot: 0, version: '1.0.0', active: true, confirmed: true, pending: false }),
    ]);
  });

  it('takes an image, tests it after a reset, and keeps it once confirmed', async () => {
    const { device, client, resets } = connect();
    const bytes = image('1.1.0');
    expect(await upload(client, bytes)).toBe(bytes.length);
    const [, uploaded] = await state(client);
    expect(uploaded).toMatchObject({ slot: 1, version: '1.1.0', pending: false });
    readImageStateAnswer(await client.request(writeImageState({ hash: uploaded?.hash, confirm: false })));
    expect((await state(client))[1]).toMatchObject({ pending: true, permanent: false });
    readDoneAnswer(await client.request(resetDevice()));
    expect(resets()).toBe(1);
    expect(device.restart()).toBe('swapped');
    expect(device.runningVersion).toBe('1.1.0');
    expect((await state(client))[0]).toMatchObject({ version: '1.1.0', active: true, confirmed: false });
    readImageStateAnswer(await client.request(writeImageState({ confirm: true })));
    expect(device.restart()).toBe('unchanged');
    expect(device.runningVersion).toBe('1.1.0');
    expect((await state(client))[0]).toMatchObject({ version: '1.1.0', confirmed: true });
  });

  it('goes back to its old image when a tested one is not confirmed before the next start', async () => {
    const { device, client } = connect();
    await upload(client, image('1.1.0'));
    const hash = (await state(client))[1]?.hash;
    readImageStateAnswer(await client.request(writeImageState({ hash, confirm: false })));
    device.restart();
    expect(device.runningVersion).toBe('1.1.0');
    expect(device.restart()).toBe('reverted');
    expect(device.runningVersion).toBe('1.0.0');
    expect((await state(client))[0]).toMatchObject({ version: '1.0.0', confirmed: true });
  });

  it('reverts by itself when the tested image does not come up', async () => {
    const { device, client } = connect({ healthy: false });
    await upload(client, image('1.1.0'));
    readImageStateAnswer(
      await client.request(writeImageState({ hash: (await state(client))[1]?.hash, confirm: false })),
    );
    expect(device.restart()).toBe('reverted');
    expect(device.runningVersion).toBe('1.0.0');
  });

  it('resumes an upload at its own offset when the same image starts again', async () => {
    const { device, client } = connect();
    const bytes = image('1.2.0', { size: 60_000 });
    const stopped = await upload(client, bytes, 24_000);
    expect(device.uploadOffset).toBe(stopped);
    const sha = firmware.sha256(bytes);
    // The first chunk again, as a central that lost the link sends it: the device says where it is.
    const again = readUploadAnswer(
      await client.request(uploadChunk({ off: 0, len: bytes.length, sha, data: bytes.subarray(0, 100) })),
    );
    expect(again.off).toBe(stopped);
    // A chunk at the wrong offset is not written: the answer names the offset it expects.
    expect(
      readUploadAnswer(await client.request(uploadChunk({ off: 5, data: bytes.subarray(5, 50) }))).off,
    ).toBe(stopped);
    expect(await upload(client, bytes)).toBe(bytes.length);
    expect((await state(client))[1]).toMatchObject({ version: '1.2.0' });
  });

  it('starts over for another image', async () => {
    const { device, client } = connect();
    await upload(client, image('1.2.0', { size: 30_000 }), 10_000);
    const other = image('1.3.0');
    const sha = firmware.sha256(other);
    const answer = readUploadAnswer(
      await client.request(uploadChunk({ off: 0, len: other.length, sha, data: other.subarray(0, 200) })),
    );
    expect(answer.off).toBe(200);
    expect(device.uploadOffset).toBe(200);
  });

  it('refuses an image for another model, with an image-group error and the reason', async () => {
    const { client } = connect();
    const error = await refusal(upload(client, image('1.1.0', { model: 'battery10' })));
    expect(error).toMatchObject({ group: 1, rc: IMG_ERR.invalidTlv });
    expect(error.message).toMatch(/for model battery10, not hybrid5k/);
    expect(await state(client)).toHaveLength(1);
  });

  it('refuses an image whose bytes were changed (its hash)', async () => {
    const { client } = connect();
    const bytes = image('1.1.0');
    bytes[1000] = (bytes[1000] ?? 0) ^ 0xff;
    // The announced sha is of the changed bytes, so only the image's own hash TLV can tell.
    const error = await refusal(upload(client, bytes));
    expect(error).toMatchObject({ group: 1, rc: IMG_ERR.invalidHash });
    expect(await state(client)).toHaveLength(1);
  });

  it('refuses an image signed with a key it does not trust, and a forged signature', async () => {
    const { client } = connect();
    const untrusted = await refusal(upload(client, image('1.1.0', { key: stranger })));
    expect(untrusted).toMatchObject({ group: null, rc: MGMT_ERR.accessDenied });
    expect(untrusted.message).toMatch(/does not trust/);
    const forged = image('1.1.0');
    // The signature is the last TLV: flip its last byte.
    forged[forged.length - 1] = (forged[forged.length - 1] ?? 0) ^ 1;
    const error = await refusal(upload(client, forged));
    expect(error.message).toMatch(/signature does not verify/);
    expect(await state(client)).toHaveLength(1);
  });

  it('refuses a bad magic at the first chunk', async () => {
    const { device, client } = connect();
    const bytes = image('1.1.0');
    bytes[0] = 0;
    const error = await refusal(upload(client, bytes));
    expect(error).toMatchObject({ group: 1, rc: IMG_ERR.invalidImageHeaderMagic });
    expect(device.uploadOffset).toBe(0);
  });

  it('refuses a test of an unknown hash, and an upload while an image waits to be tested', async () => {
    const { client } = connect();
    expect(
      await refusal(
        client
          .request(writeImageState({ hash: new Uint8Array(32), confirm: false }))
          .then(readImageStateAnswer),
      ),
    ).toMatchObject({ group: 1, rc: IMG_ERR.hashNotFound });
    await upload(client, image('1.1.0'));
    readImageStateAnswer(
      await client.request(writeImageState({ hash: (await state(client))[1]?.hash, confirm: false })),
    );
    expect(await refusal(upload(client, image('1.2.0')))).toMatchObject({
      group: 1,
      rc: IMG_ERR.imageAlreadyPending,
    });
  });

  it("answers the original protocol's requests with rc, and an unknown command with not supported", async () => {
    const { device } = connect();
    const old = await device.handle(
      encodeMessage({ op: 0, version: 0, group: 1, sequence: 3, command: 0 }, {}),
    );
    expect(old?.answer[0]).toBe(1);
    const unknown = await device.handle(
      encodeMessage({ op: 0, version: 1, group: 9, sequence: 4, command: 0 }, {}),
    );
    expect(unknown?.answer.subarray(8)).toEqual(
      encodeMessage(
        { op: 1, version: 1, group: 9, sequence: 4, command: 0 },
        { rc: 8, rsn: 'group 9 command 0 op 0' },
      ).subarray(8),
    );
    const bad = await device.handle(
      encodeMessage(
        { op: 2, version: 0, group: 1, sequence: 5, command: 1 },
        { off: 0, data: new Uint8Array(4), len: 10 },
      ),
    );
    expect(bad?.answer[0]).toBe(3);
  });
});
