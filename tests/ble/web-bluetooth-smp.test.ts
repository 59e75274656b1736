// The Web Bluetooth SMP transport over a stubbed navigator.bluetooth whose peripheral is the
// simulated device: writes without response in pieces, answers as notifications in pieces.
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { smpExchange } from '../../src/ble/smp-link.ts';
import { SMP_WRITE_PIECE, WebBluetoothSmpTransport } from '../../src/ble/web-bluetooth-smp-transport.ts';
import type { BluetoothLike } from '../../src/ble/web-bluetooth-types.ts';
import { loadFirmwareCodec } from '../../src/codec/load-node.ts';
import { FirmwareKeyring } from '../../src/device-sim/firmware-keyring.ts';
import { SmpDevice } from '../../src/device-sim/smp-device.ts';
import { SmpClient } from '../../src/smp/smp-client.ts';
import { SMP_CHARACTERISTIC, SMP_SERVICE } from '../../src/smp/smp-codes.ts';
import {
  readImageState,
  readImageStateAnswer,
  readParams,
  readParamsAnswer,
} from '../../src/smp/smp-commands.ts';
import { SmpReassembler } from '../../src/smp/smp-frame.ts';

async function peripheral() {
  const firmware = await loadFirmwareCodec();
  const key = createPublicKey(generateKeyPairSync('ed25519').privateKey);
  const keyring = await FirmwareKeyring.of(firmware, [
    new Uint8Array(key.export({ type: 'spki', format: 'der' })),
  ]);
  const device = new SmpDevice({ firmware, keyring, modelId: 'HX-5000', version: '1.0.0' });
  const written: number[] = [];
  const incoming = new SmpReassembler();
  const characteristic = Object.assign(new EventTarget(), {
    value: null as DataView | null,
    readValue: async () => new DataView(new ArrayBuffer(0)),
    writeValue: async () => {},
    startNotifications: async () => characteristic,
    async writeValueWithoutResponse(value: BufferSource) {
      const piece = new Uint8Array(value as ArrayBuffer);
      written.push(piece.length);
      for (const message of incoming.push(piece)) {
        const reply = await device.handle(message);
        if (!reply) continue;
        // Notifications of 20 bytes, as over a link with the smallest MTU.
        for (let at = 0; at < reply.answer.length; at += 20) {
          characteristic.value = new DataView(reply.answer.slice(at, at + 20).buffer);
          characteristic.dispatchEvent(new Event('characteristicvaluechanged'));
        }
      }
    },
  });
  const asked: string[] = [];
  const gatt = {
    connected: false,
    async connect() {
      gatt.connected = true;
      return gatt;
    },
    disconnect() {
      gatt.connected = false;
      bluetoothDevice.dispatchEvent(new Event('gattserverdisconnected'));
    },
    async getPrimaryService(uuid: string) {
      asked.push(uuid);
      return {
        async getCharacteristic(c: string) {
          asked.push(c);
          return characteristic;
        },
      };
    },
  };
  const bluetoothDevice = Object.assign(new EventTarget(), { id: 'dev-1', name: 'HX5K-24-000123', gatt });
  const filters: unknown[] = [];
  const bluetooth: BluetoothLike = {
    async requestDevice(options) {
      filters.push(options);
      return bluetoothDevice;
    },
  };
  return { bluetooth, written, asked, filters, gatt };
}

describe('SMP over Web Bluetooth', () => {
  it('finds the SMP service, writes messages in pieces and joins notified pieces into answers', async () => {
    const p = await peripheral();
    const link = await new WebBluetoothSmpTransport(p.bluetooth).choose('HX5K-24-000123');
    if (!link) throw new Error('no link');
    await link.connect();
    expect(p.asked).toEqual([SMP_SERVICE, SMP_CHARACTERISTIC]);
    expect(p.filters).toEqual([
      { filters: [{ namePrefix: 'HX5K-24-000123' }], optionalServices: [SMP_SERVICE] },
    ]);
    const client = new SmpClient(smpExchange(link));
    expect(readParamsAnswer(await client.request(readParams()))).toEqual({ bufSize: 2475, bufCount: 4 });
    expect(readImageStateAnswer(await client.request(readImageState()))[0]?.version).toBe('1.0.0');
    // A request over one piece goes in several writes.
    await client.request({ op: 0, group: 0, command: 0, body: { d: 'x'.repeat(600) } });
    expect(Math.max(...p.written)).toBe(SMP_WRITE_PIECE);
  });

  it('fails the request in flight when the link drops', async () => {
    const p = await peripheral();
    const link = await new WebBluetoothSmpTransport(p.bluetooth).choose('HX5K');
    if (!link) throw new Error('no link');
    await link.connect();
    const lost: string[] = [];
    link.onLost(() => lost.push('lost'));
    const exchange = smpExchange(link);
    // The device restarts before it answers.
    const pending = exchange(new Uint8Array([0, 0, 0, 1, 0, 1, 0, 0, 0xa0]));
    p.gatt.disconnect();
    await expect(pending).rejects.toThrow(/connection to the device was lost/);
    expect(lost).toEqual(['lost']);
  });
});
