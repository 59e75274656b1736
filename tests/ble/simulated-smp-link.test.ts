import { beforeAll, describe, expect, it } from 'vitest';
import { SimulatedSmpLink } from '../../src/ble/simulated-smp-transport.ts';
import type { FirmwareCodec } from '../../src/codec/firmware/image-types.ts';
import { loadFirmwareCodec } from '../../src/codec/load-node.ts';
import { FirmwareKeyring } from '../../src/device-sim/firmware-keyring.ts';
import { SmpDevice } from '../../src/device-sim/smp-device.ts';
import { SMP_VERSION } from '../../src/smp/smp-codes.ts';
import { readParams } from '../../src/smp/smp-commands.ts';
import { encodeMessage } from '../../src/smp/smp-frame.ts';

let firmware: FirmwareCodec;
beforeAll(async () => {
  firmware = await loadFirmwareCodec();
});

/** The demo link over a radio whose time passes only when the test lets it. */
async function heldLink() {
  const waits: Array<() => void> = [];
  const device = new SmpDevice({
    firmware,
    keyring: await FirmwareKeyring.of(firmware, []),
    modelId: 'HX-5000',
    version: '1.0.0',
  });
  const link = new SimulatedSmpLink({
    serialNumber: 'HX5K-24-000123',
    device,
    bytesPerSecond: 1000,
    pause: () => new Promise<void>((resolve) => waits.push(resolve)),
  });
  const heard: Uint8Array[] = [];
  link.onMessage((message) => heard.push(message));
  /** Lets every wait started so far end, and what they started run. */
  const settle = async () => {
    for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
  };
  const pass = async () => {
    for (const end of waits.splice(0)) end();
    await settle();
  };
  /** Connects, letting only the connection's own wait pass: what is on the air stays there. */
  const connect = async () => {
    const before = waits.length;
    const connected = link.connect();
    await settle();
    for (const end of waits.splice(before)) end();
    await connected;
  };
  return { link, heard, pass, connect };
}

const request = (sequence: number) => {
  const { op, group, command, body } = readParams();
  return encodeMessage({ op, version: SMP_VERSION.v2, group, sequence, command }, body);
};

describe('the demo SMP link', () => {
  it('answers a request sent on the link', async () => {
    const { link, heard, pass, connect } = await heldLink();
    await connect();
    await link.send(request(1));
    expect(heard).toHaveLength(0);
    await pass();
    expect(heard).toHaveLength(1);
  });

  it('loses a request on the air when the link drops, even when it is up again before the request would have arrived', async () => {
    const { link, heard, pass, connect } = await heldLink();
    await connect();
    await link.send(request(1));
    link.drop();
    // Up again while the first request is still on its way.
    await connect();
    await link.send(request(2));
    await pass();
    // Only the answer to the request sent on this connection is heard.
    expect(heard).toHaveLength(1);
    expect(heard[0]?.[6]).toBe(2);
  });
});
