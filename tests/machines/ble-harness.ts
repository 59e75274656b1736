import { createActor, SimulatedClock } from 'xstate';
import { createBleActors } from '../../machines/ble/ble-actors.ts';
import { connectionMachine } from '../../machines/ble/connection-machine.ts';
import { passwordMachine } from '../../machines/ble/password-machine.ts';
import { writeMachine } from '../../machines/ble/write-machine.ts';
import { targetOf } from '../../src/ble/device-commands.ts';
import { SimulatedTransport } from '../../src/ble/simulated-transport.ts';
import type { BleLink, BleTarget, BleTransport } from '../../src/ble/transport.ts';
import { loadCodec } from '../../src/codec/load-node.ts';
import { MemoryConfigStore } from '../../src/device-sim/config-store.ts';
import { SimulatedDevice } from '../../src/device-sim/simulated-device.ts';
import { bundledProducts } from '../device-config/bundled-products.ts';
import { recordCoverage } from './paths/coverage-recorder.ts';

const hybrid = bundledProducts().find((p) => p.modelId === 'HX-5000');
if (!hybrid) throw new Error('HX-5000 missing');
export const product = hybrid;
export const target = targetOf(product.entry);

/**
 * What the next operation on the link does instead of its normal work: drop before a write, or
 * before the read-back after it; damage or alter the next answer; or have the device ignore a write.
 */
export type Fault =
  | 'drop-before-write'
  | 'corrupt-next-read'
  | 'alter-next-read'
  | 'drop-before-read-back'
  | 'ignore-next-write';

/**
 * A link over the real simulator with faults to inject: the link drops before a write reaches the
 * device, an answer arrives with a bad CRC, or a read-back shows another value than was written.
 */
export class FaultyLink implements BleLink {
  faults: Fault[] = [];
  reads = 0;
  /** What the next connect or discover does instead: fail with this error, or wait for `release`. */
  next: { connect?: Error | 'hold'; discover?: Error | 'hold' } = {};
  private held: Array<() => void> = [];

  constructor(
    private readonly inner: BleLink & { drop(): void },
    private readonly reseal: (frame: Uint8Array) => void,
  ) {}
  get id() {
    return this.inner.id;
  }
  get name() {
    return this.inner.name;
  }
  get connected() {
    return this.inner.connected;
  }
  connect() {
    return this.instead('connect', () => this.inner.connect());
  }
  discover() {
    return this.instead('discover', () => this.inner.discover());
  }
  private instead<T>(step: 'connect' | 'discover', normal: () => Promise<T>): Promise<T> {
    const planned = this.next[step];
    delete this.next[step];
    if (planned === 'hold') return new Promise<void>((resolve) => this.held.push(resolve)).then(normal);
    if (planned) return Promise.reject(planned);
    return normal();
  }
  /** Lets a held connect or discover go on. */
  release() {
    for (const go of this.held.splice(0)) go();
  }
  disconnect() {
    this.inner.disconnect();
  }
  drop() {
    this.inner.drop();
  }
  write(frame: Uint8Array) {
    const fault = this.faults[0];
    if (fault === 'drop-before-write' && frame[0] === 0x02) {
      this.faults.shift();
      this.inner.drop();
    } else if (fault === 'drop-before-read-back' && frame[0] === 0x01) {
      this.faults.shift();
      this.inner.drop();
    } else if (fault === 'ignore-next-write' && frame[0] === 0x02) {
      // The device answers, but as if it had been asked to read: it stores nothing.
      this.faults.shift();
      const read = frame.slice();
      read.fill(0);
      read[0] = 0x01;
      this.reseal(read);
      return this.inner.write(read);
    }
    return this.inner.write(frame);
  }
  async read() {
    this.reads += 1;
    const answer = await this.inner.read();
    const fault = this.faults[0];
    if (fault === 'corrupt-next-read') {
      this.faults.shift();
      answer[10] = (answer[10] ?? 0) ^ 0xff;
    } else if (fault === 'alter-next-read' && answer[0] === 0x81) {
      this.faults.shift();
      const item = product.config.rawData.find((r) => r.name === 'modbusAddress');
      if (item) answer[item.buffer.position] = 99;
      this.reseal(answer);
    }
    return answer;
  }
  rssi() {
    return this.inner.rssi();
  }
  onLost(listener: () => void) {
    return this.inner.onLost(listener);
  }
}

/** The three real machines over the real simulator and the real Wasm codec, on a simulated clock. */
export async function bleHarness(options: { password?: string } = {}) {
  const codec = await loadCodec();
  const store = new MemoryConfigStore();
  const serialNumber = 'HX5K-24-000123';
  if (options.password) {
    const codes = codec.passwordCodes(options.password);
    store.save(
      serialNumber,
      Object.fromEntries(codes.map((c, i) => [`pass_${String(i).padStart(2, '0')}`, c])),
    );
  }
  const time = { t: 1_700_000_000_000 };
  const device = new SimulatedDevice({
    codec,
    entry: product.entry,
    config: product.config,
    serialNumber,
    store,
    now: () => time.t,
  });
  const simulated = new SimulatedTransport({ deviceFor: () => device });
  let link: FaultyLink | undefined;
  let chooserShown = 0;
  /** Faults to give the link once the person chooses the device (it does not exist before). */
  const plans: Array<(link: FaultyLink) => void> = [];
  const transport: BleTransport = {
    kind: 'simulated',
    async choose(t: BleTarget) {
      chooserShown += 1;
      const inner = (await simulated.choose(t)) as BleLink & { drop(): void };
      link ??= new FaultyLink(inner, (f) => codec.sealFrame(f));
      for (const plan of plans.splice(0)) plan(link);
      return link;
    },
    async known(id: string) {
      return link && link.id === id ? link : null;
    },
  };
  const actors = createBleActors({ codec, product });
  const clock = new SimulatedClock();
  const connection = createActor(connectionMachine.provide({ actors: actors.connection }), {
    input: { target },
    clock,
    inspect: recordCoverage,
  }).start();
  const password = createActor(passwordMachine.provide({ actors: actors.password }), {
    input: { needsPassword: true },
    inspect: recordCoverage,
  }).start();
  const write = createActor(writeMachine.provide({ actors: actors.write }), {
    input: { product },
    inspect: recordCoverage,
  }).start();
  return {
    codec,
    device,
    store,
    time,
    clock,
    transport,
    connection,
    password,
    write,
    link: () => {
      if (!link) throw new Error('no device chosen yet');
      return link;
    },
    chooserShown: () => chooserShown,
    /** Does `plan` to the link now, or as soon as the device is chosen. */
    plan: (plan: (link: FaultyLink) => void) => {
      if (link) plan(link);
      else plans.push(plan);
    },
  };
}
