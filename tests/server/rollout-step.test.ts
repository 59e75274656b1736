// One device's step of a firmware rollout against the simulated device's SMP side: a reset that
// never reached the device is sent again, a device that started again on its old image reverted.
import { createHash, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { type UpdateImage, updateStep } from '../../server/firmware/rollout-update.ts';
import { parseVersion, signImage } from '../../server/firmware/sign-image.ts';
import type { FirmwareCodec } from '../../src/codec/firmware/image-types.ts';
import { loadFirmwareCodec } from '../../src/codec/load-node.ts';
import { FirmwareKeyring } from '../../src/device-sim/firmware-keyring.ts';
import { SmpDevice } from '../../src/device-sim/smp-device.ts';

const key = generateKeyPairSync('ed25519').privateKey;
const MODEL = 'hybrid5k';

let firmware: FirmwareCodec;
let keyring: FirmwareKeyring;
let image: UpdateImage;
beforeAll(async () => {
  firmware = await loadFirmwareCodec();
  keyring = await FirmwareKeyring.of(firmware, [
    new Uint8Array(createPublicKey(key).export({ type: 'spki', format: 'der' })),
  ]);
  const bytes = new Uint8Array(
    signImage({
      key,
      modelId: MODEL,
      version: parseVersion('2.0.0'),
      payload: new Uint8Array(6_000).fill(9),
    }),
  );
  image = {
    bytes,
    fileSha: createHash('sha256').update(bytes).digest(),
    imageHash: firmware.parseImage(bytes).sha256,
    version: '2.0.0',
  };
});

/** A device on 1.0.0, the exchange a rollout step uses with it, and how many resets it answered. */
function device(healthy = true) {
  const smp = new SmpDevice({ firmware, keyring, modelId: MODEL, version: '1.0.0', healthy });
  let resets = 0;
  const exchange = async (message: Uint8Array) => {
    const reply = await smp.handle(message);
    if (!reply) return { ok: false as const, code: 'device_timeout' as const };
    if (reply.reset) resets += 1;
    return { ok: true as const, data: reply.answer };
  };
  return { smp, exchange, resets: () => resets };
}

const noop = async () => undefined;

describe("a rollout's step on one device", () => {
  it('resets again a device whose image is still marked for test (its reset was lost), then confirms it', async () => {
    const unit = device();
    expect(await updateStep(unit.exchange, image, false, noop)).toMatchObject({ state: 'testing' });
    expect(unit.resets()).toBe(1);
    // The reset's answer went out, but the device never started again (the link went first).
    expect(await updateStep(unit.exchange, image, true, noop)).toMatchObject({ state: 'testing' });
    expect(unit.resets()).toBe(2);
    unit.smp.restart();
    expect(await updateStep(unit.exchange, image, true, noop)).toEqual({
      state: 'confirmed',
      version: '2.0.0',
    });
  });

  it('calls a device that started again on its old image reverted', async () => {
    const unit = device(false);
    await updateStep(unit.exchange, image, false, noop);
    unit.smp.restart();
    expect(await updateStep(unit.exchange, image, true, noop)).toMatchObject({
      state: 'reverted',
      version: '1.0.0',
    });
  });
});
