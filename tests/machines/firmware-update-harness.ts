import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { parseVersion, signImage } from '../../server/firmware/sign-image.ts';
import { SimulatedSmpLink } from '../../src/ble/simulated-smp-transport.ts';
import type { SmpLink, SmpTransport } from '../../src/ble/smp-link.ts';
import { TRANSPORT_MESSAGES, TransportError } from '../../src/ble/transport-error.ts';
import type { FirmwareCodec } from '../../src/codec/firmware/image-types.ts';
import { loadFirmwareCodec } from '../../src/codec/load-node.ts';
import { FirmwareKeyring } from '../../src/device-sim/firmware-keyring.ts';
import { SmpDevice } from '../../src/device-sim/smp-device.ts';
import type { CborMap } from '../../src/smp/smp-cbor.ts';
import { decodeMessage, type SmpHeader } from '../../src/smp/smp-frame.ts';

export const MODEL = 'HX-5000';
export const SERIAL = 'HX5K-24-000123';
export const signingKey: KeyObject = generateKeyPairSync('ed25519').privateKey;
const otherKey: KeyObject = generateKeyPairSync('ed25519').privateKey;

let shared:
  | Promise<{ firmware: FirmwareCodec; keyring: FirmwareKeyring; otherKeyring: FirmwareKeyring }>
  | undefined;
function keys() {
  shared ??= (async () => {
    const firmware = await loadFirmwareCodec();
    const spki = (k: KeyObject) => new Uint8Array(createPublicKey(k).export({ type: 'spki', format: 'der' }));
    return {
      firmware,
      keyring: await FirmwareKeyring.of(firmware, [spki(signingKey)]),
      otherKeyring: await FirmwareKeyring.of(firmware, [spki(otherKey)]),
    };
  })();
  return shared;
}

/** A signed image of `version` for `model`, with a payload big enough for about 20 chunks. */
export function signedImage(version = '1.1.0', model = MODEL): Uint8Array {
  const payload = new Uint8Array(48 * 1024).map((_, i) => (i * 7 + 3) & 0xff);
  return new Uint8Array(
    signImage({ key: signingKey, modelId: model, version: parseVersion(version), payload }),
  );
}

/** A one-shot fault: drop the link when a request matches. */
export type DropWhen = (header: SmpHeader, body: CborMap) => boolean;

/**
 * The demo device's SMP link with faults a path can ask for: a drop when a given request is
 * sent, connections that fail (a few, or all after the reset), sends or connects held until released.
 */
export class ScriptedLink implements SmpLink {
  dropWhen: DropWhen | null = null;
  failConnects = 0;
  neverBackAfterReset = false;
  resets = 0;
  sent: SmpHeader[] = [];
  private holds: { send?: Promise<void>; connect?: Promise<void> } = {};
  private releases: Array<() => void> = [];

  constructor(readonly inner: SimulatedSmpLink) {}

  get id() {
    return this.inner.id;
  }
  get name() {
    return this.inner.name;
  }

  hold(what: 'send' | 'connect'): void {
    this.holds[what] = new Promise((resolve) => this.releases.push(resolve));
  }

  release(): void {
    this.holds = {};
    for (const release of this.releases.splice(0)) release();
  }

  async connect(): Promise<void> {
    if (this.holds.connect) await this.holds.connect;
    if (this.failConnects > 0 || (this.neverBackAfterReset && this.resets > 0)) {
      this.failConnects = Math.max(0, this.failConnects - 1);
      throw new TransportError('out-of-range', TRANSPORT_MESSAGES.outOfRange);
    }
    await this.inner.connect();
  }

  disconnect(): void {
    this.inner.disconnect();
  }

  async send(message: Uint8Array): Promise<void> {
    if (this.holds.send) await this.holds.send;
    const { header, body } = decodeMessage(message);
    this.sent.push(header);
    if (header.group === 0 && header.command === 5) this.resets += 1;
    if (this.dropWhen?.(header, body)) {
      this.dropWhen = null;
      this.inner.drop();
      return;
    }
    await this.inner.send(message);
  }

  onMessage(listener: (message: Uint8Array) => void) {
    return this.inner.onMessage(listener);
  }

  onLost(listener: () => void) {
    return this.inner.onLost(listener);
  }
}

export interface UpdateRig {
  firmware: FirmwareCodec;
  device: SmpDevice;
  link: ScriptedLink;
  transport: SmpTransport & { closeChooser: boolean };
}

/** A device running 1.0.0 that trusts the signing key (or another key), and its scripted link. */
export async function updateRig(
  options: { healthy?: boolean; trustsOtherKey?: boolean } = {},
): Promise<UpdateRig> {
  const { firmware, keyring, otherKeyring } = await keys();
  const device = new SmpDevice({
    firmware,
    keyring: options.trustsOtherKey ? otherKeyring : keyring,
    modelId: MODEL,
    version: '1.0.0',
    ...(options.healthy === false ? { healthy: false } : {}),
  });
  const link = new ScriptedLink(
    new SimulatedSmpLink({ serialNumber: SERIAL, device, pause: () => Promise.resolve() }),
  );
  const transport = {
    kind: 'simulated' as const,
    closeChooser: false,
    async choose() {
      return transport.closeChooser ? null : link;
    },
  };
  return { firmware, device, link, transport };
}
