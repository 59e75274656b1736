import { beforeAll, describe, expect, it } from 'vitest';
import { readConfiguration } from '../../src/ble/device-commands.ts';
import { SimulatedTransport } from '../../src/ble/simulated-transport.ts';
import type { BleTarget } from '../../src/ble/transport.ts';
import { transportErrorKind } from '../../src/ble/transport-error.ts';
import { WebBluetoothTransport } from '../../src/ble/web-bluetooth-transport.ts';
import { loadCodec } from '../../src/codec/load-node.ts';
import type { Codec } from '../../src/codec/types.ts';
import { SimulatedDevice } from '../../src/device-sim/simulated-device.ts';
import { type BundledProduct, bundledProducts } from '../device-config/bundled-products.ts';
import { FakeBluetooth } from './fake-web-bluetooth.ts';
import { type TransportHarness, transportContract } from './transport-contract.ts';

let codec: Codec;
beforeAll(async () => {
  codec = await loadCodec();
});

const hybrid = bundledProducts().find((p) => p.modelId === 'HX-5000');
if (!hybrid) throw new Error('HX-5000 missing');
const product: BundledProduct = hybrid;
const target: BleTarget = {
  service: product.entry.write.service,
  characteristic: product.entry.write.characteristic,
  bufferSize: product.entry.write.bufferSize,
  namePrefix: product.entry.serialPrefix,
};

function simulator() {
  return new SimulatedDevice({
    codec,
    entry: product.entry,
    config: product.config,
    serialNumber: 'HX5K-24-000123',
  });
}

function webBluetoothHarness() {
  const device = simulator();
  const bluetooth = new FakeBluetooth(device, target.service, target.characteristic);
  const harness: TransportHarness = {
    transport: new WebBluetoothTransport(bluetooth),
    target,
    product,
    codec,
    device,
    drop: () => bluetooth.device.drop(),
  };
  return { harness, bluetooth };
}

transportContract('Web Bluetooth (stubbed navigator.bluetooth)', async () => webBluetoothHarness().harness);

transportContract('simulated device', async () => {
  const device = simulator();
  return {
    transport: new SimulatedTransport({ deviceFor: () => device }),
    target,
    product,
    codec,
    device,
    drop: (link) => (link as unknown as { drop(): void }).drop(),
  };
});

const kindOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return 'no failure';
  } catch (error) {
    return transportErrorKind(error) ?? String(error);
  }
};

describe('the Web Bluetooth transport', () => {
  it("asks the chooser for the model's service and serial prefix", async () => {
    const { harness, bluetooth } = webBluetoothHarness();
    await harness.transport.choose(target);
    expect(bluetooth.lastRequest?.filters).toEqual([{ services: [target.service], namePrefix: 'HX5K' }]);
  });

  it('treats a chooser closed without a device as no choice, not an error', async () => {
    const { harness, bluetooth } = webBluetoothHarness();
    bluetooth.chooser = 'cancel';
    expect(await harness.transport.choose(target)).toBeNull();
  });

  it('says plainly when the browser has no Web Bluetooth', async () => {
    const transport = new WebBluetoothTransport(undefined);
    const failure = await transport.choose(target).catch((e: Error) => e);
    expect(transportErrorKind(failure)).toBe('unsupported');
    expect((failure as Error).message).toMatch(/Chrome, Edge or Opera.*demo device/);
  });

  it('says when Bluetooth is off', async () => {
    const { harness, bluetooth } = webBluetoothHarness();
    bluetooth.available = false;
    expect(await kindOf(harness.transport.choose(target))).toBe('unavailable');
  });

  it('says when the device is out of range', async () => {
    const { harness, bluetooth } = webBluetoothHarness();
    const link = await harness.transport.choose(target);
    bluetooth.inRange = false;
    expect(await kindOf(link?.connect() ?? Promise.resolve())).toBe('out-of-range');
  });

  it('says when the device lacks the configuration service', async () => {
    const { harness } = webBluetoothHarness();
    const link = await harness.transport.choose({
      ...target,
      service: '00000000-0000-4000-8000-000000000000',
    });
    await link?.connect();
    expect(await kindOf(link?.discover() ?? Promise.resolve())).toBe('missing-service');
  });

  it('tries a GATT operation once more when the device was busy', async () => {
    const { harness, bluetooth } = webBluetoothHarness();
    const link = await harness.transport.choose(target);
    if (!link) throw new Error('no link');
    await link.connect();
    await link.discover();
    bluetooth.busyOnce = true;
    expect((await readConfiguration(codec, link, product)).frame[0]).toBe(0x81);
  });

  it('finds a device chosen on an earlier page through getDevices(), without the chooser', async () => {
    const { harness, bluetooth } = webBluetoothHarness();
    const chosen = await harness.transport.choose(target);
    if (!chosen) throw new Error('nothing chosen');
    // A new page: a new transport with no links of its own, the browser's permission kept.
    const later = new WebBluetoothTransport(bluetooth);
    const again = await later.known(chosen.id, target);
    if (!again) throw new Error('the device the browser knows was not found');
    await again.connect();
    await again.discover();
    expect((await readConfiguration(codec, again, product)).frame[0]).toBe(0x81);
    expect(bluetooth.chooserShown).toBe(1);
  });

  it('needs the chooser again for a device the browser no longer knows', async () => {
    const { harness } = webBluetoothHarness();
    expect(await harness.transport.known('someone-else', target)).toBeNull();
  });
});
