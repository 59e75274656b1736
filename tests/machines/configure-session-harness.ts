import { createActor, fromCallback, fromPromise, SimulatedClock } from 'xstate';
import type { ProvisioningAnswer } from '../../contracts/claims.ts';
import type { ConfigHistoryEntry } from '../../contracts/config-history.ts';
import type { ConfigTemplate } from '../../contracts/config-templates.ts';
import { createBleActors } from '../../machines/ble/ble-actors.ts';
import type {
  ConfigHistoryEvent,
  HistoryLoad,
  HistoryWrite,
  OlderPage,
} from '../../machines/ble/config-history-machine.ts';
import { configureSessionWith } from '../../machines/ble/configure-session-machine.ts';
import type { TemplateChange } from '../../machines/ble/templates-machine.ts';
import { SimulatedTransport } from '../../src/ble/simulated-transport.ts';
import type { BleLink, BleTarget, BleTransport } from '../../src/ble/transport.ts';
import { TransportError } from '../../src/ble/transport-error.ts';
import { loadCodec } from '../../src/codec/load-node.ts';
import { decodeConfiguration } from '../../src/device-config/decode-values.ts';
import { OPCODE } from '../../src/device-protocol/protocol.ts';
import { MemoryConfigStore } from '../../src/device-sim/config-store.ts';
import { SimulatedDevice } from '../../src/device-sim/simulated-device.ts';
import { FaultyLink, product } from './ble-harness.ts';
import { recordCoverage } from './paths/coverage-recorder.ts';

export const SERIAL = 'HX5K-24-000123';
/** Leading zeros: a password kept as a number would lose them. */
export const PASSWORD = '0042abc';
/** The demo device keeps the catalogue's password. */
export const DEMO_PASSWORD = '0000';
/** The address the service names when it provisions a device. */
export const DEVICE_ADDRESS = 'wss://fleet.example/config/service-comms/devices/ws';
/** The phone's clock in these tests: 25 November 2026, 2:14 am. */
export const PHONE_TIME = new Date(2026, 10, 25, 2, 14);

/** A device over the real simulator, with the test's clock for its live values. */
async function deviceWith(serialNumber: string, password?: string) {
  const codec = await loadCodec();
  const store = new MemoryConfigStore();
  if (password) {
    const codes = codec.passwordCodes(password);
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
  return { codec, device, store, time };
}

/**
 * The real Configure session machine with its real children over the real simulator and Wasm
 * codec, on a simulated clock: "Bluetooth" is a device reached through a faulty link the test
 * controls (the chooser counted), the demo device is the page's simulated transport, and the
 * history keeps what it is given in memory, as the service would.
 */
export async function sessionHarness(options: { history?: boolean; bluetooth?: boolean } = {}) {
  const real = await deviceWith(SERIAL, PASSWORD);
  const { codec } = real;
  const demo = await deviceWith(SERIAL);
  const simulated = new SimulatedTransport({ deviceFor: () => real.device });
  let link: FaultyLink | undefined;
  let chooserShown = 0;
  let chooserAnswer: 'device' | 'closed' | 'fails' = 'device';
  const bluetooth: BleTransport = {
    kind: 'web-bluetooth',
    async choose(t: BleTarget) {
      chooserShown += 1;
      if (chooserAnswer === 'closed') return null;
      if (chooserAnswer === 'fails')
        throw new TransportError('unavailable', 'Bluetooth is switched off on this device.');
      const inner = (await simulated.choose(t)) as BleLink & { drop(): void };
      link ??= new FaultyLink(inner, (f) => codec.sealFrame(f));
      return link;
    },
    async known(id: string) {
      return link && link.id === id ? link : null;
    },
  };
  const demoTransport = new SimulatedTransport({ deviceFor: () => demo.device });

  const recorded: HistoryWrite[] = [];
  const entries: ConfigHistoryEntry[] = [];
  const history = {
    loadHistory: fromPromise<HistoryLoad, { serial: string }>(async () => ({
      entries: [...entries],
      nextCursor: null,
      waiting: [],
      error: null,
    })),
    loadOlder: fromPromise<OlderPage, { serial: string; cursor: string }>(async () => ({
      entries: [],
      nextCursor: null,
    })),
    recordWrite: fromPromise<unknown, HistoryWrite>(async ({ input }) => {
      recorded.push(input);
      entries.unshift({
        id: `e${recorded.length}`,
        serial: input.serialNumber,
        userId: 2,
        writtenAt: PHONE_TIME.toISOString(),
        receivedAt: PHONE_TIME.toISOString(),
        userEmail: 'installer@solarpros.example',
        transport: input.transport,
        changes: input.changes,
      });
      return 'sent';
    }),
    watchOnline: fromCallback<ConfigHistoryEvent>(() => () => undefined),
  };
  const clock = new SimulatedClock();
  const templates = {
    loadTemplates: fromPromise<ConfigTemplate[], { modelId: string }>(async () => []),
    changeTemplates: fromPromise<unknown, { modelId: string; change: TemplateChange }>(async () => undefined),
  };
  /** The service's side of provisioning: a new secret each time, and its address. */
  let issued = 0;
  const provision = {
    issue: fromPromise<ProvisioningAnswer, { serial: string }>(async ({ input }) => {
      issued += 1;
      return { serialNumber: input.serial, secret: `secret-number-${issued}`, address: DEVICE_ADDRESS };
    }),
  };
  const logic = configureSessionWith({
    ble: createBleActors({ codec, product }),
    ...(options.history === false ? {} : { history, templates, provision }),
  });
  const session = createActor(logic, {
    clock,
    inspect: recordCoverage,
    input: {
      product,
      serialNumber: SERIAL,
      transports: { bluetooth: options.bluetooth === false ? null : bluetooth, demo: demoTransport },
      signedIn: options.history !== false,
      demoPassword: DEMO_PASSWORD,
      now: () => PHONE_TIME,
    },
  }).start();
  const children = () => session.getSnapshot().context;
  /** The history child (the session keeps one when signed in). */
  const historyChild = () => {
    const ref = children().history;
    if (!ref) throw new Error('this session keeps no history');
    return ref;
  };
  /** What a device holds now, decoded. */
  const stored = (device: SimulatedDevice) =>
    decodeConfiguration(
      codec,
      product.config,
      device.request(codec.buildFrame(OPCODE.readConfiguration, 255)),
    ).values;
  return {
    codec,
    clock,
    session,
    children,
    history: historyChild,
    real,
    demo,
    recorded,
    stored,
    /** The next Connect's chooser is closed without a device. */
    closeChooserNextTime: () => {
      chooserAnswer = 'closed';
    },
    /** The next Connect fails: Bluetooth is off. */
    failChooserNextTime: () => {
      chooserAnswer = 'fails';
    },
    chooserAnswersAgain: () => {
      chooserAnswer = 'device';
    },
    link: () => {
      if (!link) throw new Error('no device chosen yet');
      return link;
    },
    chooserShown: () => chooserShown,
    /** How many secrets the service issued. */
    issued: () => issued,
  };
}

export type SessionHarness = Awaited<ReturnType<typeof sessionHarness>>;
