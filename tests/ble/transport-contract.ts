import { describe, expect, it } from 'vitest';
import { exchange, readConfiguration, sendPassword } from '../../src/ble/device-commands.ts';
import type { BleLink, BleTarget, BleTransport } from '../../src/ble/transport.ts';
import { transportErrorKind } from '../../src/ble/transport-error.ts';
import type { Codec } from '../../src/codec/types.ts';
import { OPCODE } from '../../src/device-protocol/protocol.ts';
import type { SimulatedDevice } from '../../src/device-sim/simulated-device.ts';
import type { BundledProduct } from '../device-config/bundled-products.ts';

/** What the contract needs from one transport under test. */
export interface TransportHarness {
  transport: BleTransport;
  target: BleTarget;
  product: BundledProduct;
  codec: Codec;
  device: SimulatedDevice;
  /** The radio link goes away (out of range), as opposed to the app disconnecting. */
  drop(link: BleLink): void;
}

async function ready(h: TransportHarness): Promise<BleLink> {
  const link = await h.transport.choose(h.target);
  if (!link) throw new Error('no device chosen');
  await link.connect();
  await link.discover();
  return link;
}

const failureKind = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return transportErrorKind(error) ?? String(error);
  }
  return 'no failure';
};

/** One contract, every transport: the machines rely on exactly these behaviours. */
export function transportContract(name: string, makeHarness: () => Promise<TransportHarness>) {
  describe(`${name} transport contract`, () => {
    it('chooses the device by its serial number and connects to its configuration characteristic', async () => {
      const h = await makeHarness();
      const link = await ready(h);
      expect(link.name).toBe(h.device.serialNumber);
      expect(link.connected).toBe(true);
    });

    it('writes a command and reads its answer', async () => {
      const h = await makeHarness();
      const link = await ready(h);
      const { decoded } = await readConfiguration(h.codec, link, h.product);
      expect([decoded.values.deviceName, decoded.values.maxChargeCurrent]).toEqual(['HX5000', 80]);
    });

    it('keeps overlapping commands apart: each caller gets the answer to its own command', async () => {
      const h = await makeHarness();
      const link = await ready(h);
      const size = h.target.bufferSize;
      const [config, live, password] = await Promise.all([
        exchange(h.codec, link, h.codec.buildFrame(OPCODE.readConfiguration, size)),
        exchange(h.codec, link, h.codec.buildFrame(OPCODE.readLiveValues, size)),
        sendPassword(h.codec, link, h.product, 'not-it'),
      ]);
      expect([config[0], live[0], password]).toEqual([0x81, 0x83, false]);
    });

    it('refuses a frame longer than 512 bytes before sending anything', async () => {
      const h = await makeHarness();
      const link = await ready(h);
      expect(await failureKind(link.write(new Uint8Array(513)))).toBe('frame-too-long');
    });

    it('tells its listeners when the link drops, and fails later writes as disconnected', async () => {
      const h = await makeHarness();
      const link = await ready(h);
      let lost = 0;
      link.onLost(() => {
        lost += 1;
      });
      h.drop(link);
      expect(lost).toBe(1);
      expect(link.connected).toBe(false);
      expect(await failureKind(link.write(h.codec.buildFrame(1, h.target.bufferSize)))).toBe('disconnected');
    });

    it('does not report a loss when the app disconnects on purpose', async () => {
      const h = await makeHarness();
      const link = await ready(h);
      let lost = 0;
      link.onLost(() => {
        lost += 1;
      });
      link.disconnect();
      expect([lost, link.connected]).toEqual([0, false]);
    });

    it('finds a device chosen before without the chooser, and the device asks for its password again', async () => {
      const h = await makeHarness();
      const first = await ready(h);
      expect(await sendPassword(h.codec, first, h.product, '0000')).toBe(true);
      h.drop(first);
      const again = await h.transport.known(first.id, h.target);
      if (!again) throw new Error('the chosen device was not found again');
      await again.connect();
      await again.discover();
      expect(h.device.isUnlocked).toBe(false);
      expect((await readConfiguration(h.codec, again, h.product)).frame[0]).toBe(0x81);
    });

    it('reports a negative signal strength or none at all', async () => {
      const h = await makeHarness();
      const link = await ready(h);
      const rssi = await link.rssi();
      if (rssi !== undefined) expect(rssi).toBeLessThan(0);
    });
  });
}
