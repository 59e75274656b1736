import type { Browser, CDPSession, Page } from 'playwright-core';
import { targetOf } from '../../src/ble/device-commands.ts';
import type { Codec } from '../../src/codec/types.ts';
import { OPCODE, type Provisioning } from '../../src/device-protocol/protocol.ts';
import type { MemoryConfigStore } from '../../src/device-sim/config-store.ts';
import { SimulatedDevice } from '../../src/device-sim/simulated-device.ts';
import type { BundledProduct } from '../device-config/bundled-products.ts';

const ADDRESS = '09:09:09:09:09:09';

/**
 * A Bluetooth peripheral in Chromium's Bluetooth emulation (browser-level CDP, DESIGN.md §8),
 * answered by the real device simulator running in the test: every GATT connection and discovery
 * succeeds, every characteristic write goes to the simulator and every read returns its answer.
 */
export class EmulatedPeripheral {
  readonly device: SimulatedDevice;
  /** The next `Write configuration` is not delivered: the link drops instead. */
  dropOnNextWrite = false;
  /** The device stays away: connections wait, unanswered, until `comeBack()`. */
  away = false;
  private waitingConnections: Array<() => void> = [];
  private characteristicId = '';

  private constructor(
    private readonly cdp: CDPSession,
    codec: Codec,
    private readonly product: BundledProduct,
    serialNumber: string,
    store: MemoryConfigStore,
    onProvisioned?: (provisioning: Provisioning) => void,
  ) {
    this.device = new SimulatedDevice({
      codec,
      entry: product.entry,
      config: product.config,
      serialNumber,
      store,
      ...(onProvisioned ? { onProvisioned } : {}),
    });
  }

  static async start(
    browser: Browser,
    options: {
      codec: Codec;
      product: BundledProduct;
      serialNumber: string;
      store: MemoryConfigStore;
      /** What the device does when the app gives it a secret and an address. */
      onProvisioned?: (provisioning: Provisioning) => void;
    },
  ): Promise<EmulatedPeripheral> {
    const cdp = await browser.newBrowserCDPSession();
    const peripheral = new EmulatedPeripheral(
      cdp,
      options.codec,
      options.product,
      options.serialNumber,
      options.store,
      options.onProvisioned,
    );
    await peripheral.setUp();
    return peripheral;
  }

  private async setUp(): Promise<void> {
    const target = targetOf(this.product.entry);
    await this.cdp.send('BluetoothEmulation.enable', { state: 'powered-on', leSupported: true });
    await this.cdp.send('BluetoothEmulation.simulatePreconnectedPeripheral', {
      address: ADDRESS,
      name: this.device.serialNumber,
      manufacturerData: [],
      knownServiceUuids: [target.service],
    });
    await this.addService();
    this.cdp.on('BluetoothEmulation.gattOperationReceived', (event) => {
      const respond = () => {
        if (event.type === 'connection') this.device.connect();
        void this.cdp.send('BluetoothEmulation.simulateGATTOperationResponse', {
          address: event.address,
          type: event.type,
          code: 0,
        });
      };
      if (event.type === 'connection' && this.away) this.waitingConnections.push(respond);
      else respond();
    });
    this.cdp.on('BluetoothEmulation.characteristicOperationReceived', (event) => {
      void this.answer(event.type, event.data);
    });
  }

  /** The model's service and characteristic (again after a disconnection, which forgets them). */
  private async addService(): Promise<void> {
    const target = targetOf(this.product.entry);
    const { serviceId } = await this.cdp.send('BluetoothEmulation.addService', {
      address: ADDRESS,
      serviceUuid: target.service,
    });
    const { characteristicId } = await this.cdp.send('BluetoothEmulation.addCharacteristic', {
      serviceId,
      characteristicUuid: target.characteristic,
      properties: { read: true, write: true },
    });
    this.characteristicId = characteristicId;
  }

  private async answer(type: string, data: string | undefined): Promise<void> {
    const characteristicId = this.characteristicId;
    if (type === 'write') {
      const frame = Uint8Array.from(Buffer.from(data ?? '', 'base64'));
      if (this.dropOnNextWrite && frame[0] === OPCODE.writeConfiguration) {
        this.dropOnNextWrite = false;
        // Chromium's emulation holds a disconnection back while a write waits for its answer: the
        // write fails first (as the link going down under it would), then the link drops.
        await this.cdp.send('BluetoothEmulation.simulateCharacteristicOperationResponse', {
          characteristicId,
          type: 'write',
          code: 0x0e,
        });
        await this.drop();
        return;
      }
      this.device.write(frame);
      await this.cdp.send('BluetoothEmulation.simulateCharacteristicOperationResponse', {
        characteristicId,
        type: 'write',
        code: 0,
      });
      return;
    }
    if (type === 'read') {
      const answer = Buffer.from(this.device.read()).toString('base64');
      await this.cdp.send('BluetoothEmulation.simulateCharacteristicOperationResponse', {
        characteristicId,
        type: 'read',
        code: 0,
        data: answer,
      });
    }
  }

  /** The device goes out of range. */
  async drop(): Promise<void> {
    this.device.disconnect();
    await this.cdp.send('BluetoothEmulation.simulateGATTDisconnection', { address: ADDRESS });
    await this.addService();
  }

  /** The device is in range again: the connections that waited are answered. */
  comeBack(): void {
    this.away = false;
    for (const respond of this.waitingConnections.splice(0)) respond();
  }

  async stop(): Promise<void> {
    await this.cdp.send('BluetoothEmulation.disable').catch(() => undefined);
    await this.cdp.detach().catch(() => undefined);
  }
}

/**
 * Answers the page's Bluetooth chooser with the first device offered, exactly once (a second
 * `selectPrompt` crashes the browser). Returns how many times the chooser was shown.
 */
export async function answerChooser(page: Page): Promise<{ prompts: () => number }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DeviceAccess.enable');
  let prompts = 0;
  let selected = false;
  const seen = new Set<string>();
  cdp.on('DeviceAccess.deviceRequestPrompted', (event) => {
    if (!seen.has(event.id)) {
      seen.add(event.id);
      prompts += 1;
    }
    const device = event.devices[0];
    if (selected || !device) return;
    selected = true;
    void cdp.send('DeviceAccess.selectPrompt', { id: event.id, deviceId: device.id });
  });
  return { prompts: () => prompts };
}
