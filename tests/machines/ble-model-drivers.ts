import { expect } from 'vitest';
import { createActor, waitFor } from 'xstate';
import type { TestParam } from 'xstate/graph';
import { createBleActors } from '../../machines/ble/ble-actors.ts';
import type { ReadConfiguration } from '../../machines/ble/ble-types.ts';
import { GET_CONFIG_INTERVAL_MS, MAX_RECONNECT_ATTEMPTS } from '../../machines/ble/connection-machine.ts';
import { PASSWORD_MESSAGES, passwordMachine } from '../../machines/ble/password-machine.ts';
import { WRITE_MESSAGES } from '../../machines/ble/write-machine.ts';
import { sendPassword } from '../../src/ble/device-commands.ts';
import type { BleTransport } from '../../src/ble/transport.ts';
import { TransportError } from '../../src/ble/transport-error.ts';
import { decodeConfiguration } from '../../src/device-config/decode-values.ts';
import { EXCLUDED_GROUPS } from '../../src/device-config/excluded-groups.ts';
import { buildForm } from '../../src/device-config/form-fields.ts';
import { OPCODE } from '../../src/device-protocol/protocol.ts';
import { bleHarness, type FaultyLink, product } from './ble-harness.ts';
import { recordCoverage } from './paths/coverage-recorder.ts';

// biome-ignore lint/suspicious/noExplicitAny: TestParam is generic over the model's snapshot and events
type Params = TestParam<any, any>;
type Harness = Awaited<ReturnType<typeof bleHarness>>;

/** The device password of the password and write paths: leading zeros, so a number would lose them. */
const PASSWORD = '0042abc';

/** A transport whose chooser is closed without a device. */
const closedChooser: BleTransport = { kind: 'simulated', choose: async () => null, known: async () => null };

/** A transport whose chooser cannot open: Bluetooth is off. */
const bluetoothOff: BleTransport = {
  kind: 'simulated',
  choose: async () => {
    throw new TransportError('unavailable', 'Bluetooth is turned off.');
  },
  known: async () => null,
};

/** Brings a dropped link back after the first backoff (1 s) and waits until the connection is ready. */
async function backAfterBackoff(h: Harness) {
  await waitFor(h.connection, (s) => s.matches({ reconnecting: 'waiting' }));
  h.clock.increment(1000);
  await waitFor(h.connection, (s) => s.matches('ready'));
}

/** Events and state checks that run one path of `bleConnectionModel` against the real machine. */
export function bleConnectionModelDriver(): Params {
  const started = bleHarness();
  let readsAtReady = 0;
  /** The chooser is shown once per Connect, never for a reconnection. */
  let connects = 0;
  let realConnect: (() => Promise<void>) | undefined;
  const snap = async () => (await started).connection.getSnapshot();
  const idle = async () => {
    const s = await snap();
    expect(s.matches('idle')).toBe(true);
    expect(s.context.problem).toBeNull();
  };
  let handed: ReadConfiguration | null = null;
  /** Presses Connect with a plan for the link, and waits until the machine is in `until`. */
  const connectWith = async (
    plan: (link: FaultyLink) => void,
    until: 'failed' | 'connecting' | 'discovering',
  ) => {
    const h = await started;
    h.plan(plan);
    connects += 1;
    h.connection.send({ type: 'ble.connect', transport: h.transport });
    await waitFor(h.connection, (s) => s.matches(until));
  };
  const cancelWhile = async (step: 'connect' | 'discover') => {
    const h = await started;
    await connectWith(
      (link) => {
        link.next[step] = 'hold';
      },
      step === 'connect' ? 'connecting' : 'discovering',
    );
    h.connection.send({ type: 'ble.disconnect' });
    await waitFor(h.connection, (s) => s.matches('idle'));
    // The step cut short ends late: that must not bring the connection back.
    h.link().release();
    await new Promise((resolve) => setImmediate(resolve));
  };
  const failedWith = async (kind: string) => {
    const s = await snap();
    expect(s.matches('failed')).toBe(true);
    expect(s.context.problem?.kind).toBe(kind);
  };
  const ready = async () => {
    const h = await started;
    const s = h.connection.getSnapshot();
    expect(s.matches('ready')).toBe(true);
    expect(s.context.config?.decoded.values).toBeDefined();
    expect(s.context.problem).toBeNull();
    expect(h.chooserShown()).toBe(connects);
  };
  return {
    events: {
      'ble.connect': async () => {
        const h = await started;
        connects += 1;
        h.connection.send({ type: 'ble.connect', transport: h.transport });
        await waitFor(h.connection, (s) => s.matches('ready'));
        readsAtReady = h.link().reads;
      },
      'chooser.closed': async () => {
        const h = await started;
        h.connection.send({ type: 'ble.connect', transport: closedChooser });
        expect(h.connection.getSnapshot().matches('choosing')).toBe(true);
        await waitFor(h.connection, (s) => !s.matches('choosing'));
      },
      // Specification §9: getConfigInterval is 20000 ms, pinned here rather than read from the machine.
      'chooser.fails': async () => {
        const h = await started;
        h.connection.send({ type: 'ble.connect', transport: bluetoothOff });
        await waitFor(h.connection, (s) => s.matches('failed'));
      },
      'connect.outOfRange': () =>
        connectWith((link) => {
          link.next.connect = new TransportError('out-of-range', 'The device is out of range.');
        }, 'failed'),
      'connect.noService': () =>
        connectWith((link) => {
          link.next.discover = new TransportError(
            'missing-service',
            'The device does not offer the configuration service.',
          );
        }, 'failed'),
      'disconnect.whileConnecting': () => cancelWhile('connect'),
      'disconnect.whileDiscovering': () => cancelWhile('discover'),
      'ble.refresh': async () => {
        const h = await started;
        const before = h.link().reads;
        h.connection.send({ type: 'ble.refresh' });
        await waitFor(h.connection, (s) => s.matches({ ready: 'waiting' }) && h.link().reads > before);
      },
      'read.damaged': async () => {
        const h = await started;
        h.link().faults.push('corrupt-next-read');
        h.connection.send({ type: 'ble.refresh' });
        await waitFor(h.connection, (s) => s.matches({ ready: 'waiting' }) && s.context.problem !== null);
      },
      'config.written': async () => {
        const h = await started;
        // What a verified write read back, handed over so the form shows it without another read.
        const frame = h.device.request(h.codec.buildFrame(OPCODE.readConfiguration, 255));
        handed = { frame, decoded: decodeConfiguration(h.codec, product.config, frame) };
        h.connection.send({ type: 'ble.configWritten', config: handed });
      },
      'interval.elapsed': async () => {
        const h = await started;
        expect(GET_CONFIG_INTERVAL_MS).toBe(20_000);
        h.clock.increment(19_999);
        expect(h.link().reads).toBe(readsAtReady);
        h.clock.increment(1);
        await waitFor(h.connection, (s) => s.matches({ ready: 'waiting' }) && h.link().reads > readsAtReady);
      },
      'link.dropped': async () => {
        const h = await started;
        h.link().drop();
        await waitFor(h.connection, (s) => s.matches('reconnecting'));
      },
      'backoff.elapsed': async () => backAfterBackoff(await started),
      'device.staysAway': async () => {
        const h = await started;
        const link = h.link();
        realConnect = link.connect.bind(link);
        link.connect = async () => {
          throw new TransportError('out-of-range', 'The device is out of range.');
        };
        for (let attempt = 1; attempt <= MAX_RECONNECT_ATTEMPTS; attempt += 1) {
          await waitFor(h.connection, (s) => s.matches({ reconnecting: 'waiting' }));
          h.clock.increment(1000 * 2 ** (attempt - 1));
          await waitFor(h.connection, (s) => !s.matches({ reconnecting: 'trying' }));
        }
        await waitFor(h.connection, (s) => s.matches('failed'));
      },
      'device.back': async () => {
        const h = await started;
        const link = h.link();
        if (realConnect) link.connect = realConnect;
        h.connection.send({ type: 'ble.reconnect' });
        await backAfterBackoff(h);
      },
      'ble.disconnect': async () => {
        const h = await started;
        h.connection.send({ type: 'ble.disconnect' });
        await waitFor(h.connection, (s) => s.matches('idle'));
      },
    },
    states: {
      idle,
      // Closing the chooser is not an error: back to idle, nothing to report.
      chooserClosed: idle,
      disconnected: async () => {
        await idle();
        expect((await started).link().connected).toBe(false);
      },
      ready,
      readAgain: async () => {
        await ready();
        expect((await started).link().reads).toBeGreaterThan(readsAtReady);
      },
      reconnecting: async () => {
        const s = await snap();
        expect(s.matches('reconnecting')).toBe(true);
        expect(s.context.attempt).toBe(1);
      },
      reconnected: ready,
      chooserFailed: async () => {
        await failedWith('unavailable');
        // No device was ever chosen: there is nothing to reconnect to.
        expect((await snap()).can({ type: 'ble.reconnect' })).toBe(false);
      },
      connectedAfterFailure: ready,
      connectFailed: () => failedWith('out-of-range'),
      discoverFailed: async () => {
        await failedWith('missing-service');
        expect((await started).link().connected).toBe(false);
      },
      cancelledConnecting: idle,
      cancelledDiscovering: async () => {
        await idle();
        expect((await started).link().connected).toBe(false);
      },
      readOnRequest: async () => {
        await ready();
        expect((await started).link().reads).toBeGreaterThan(readsAtReady);
      },
      readFailed: async () => {
        const s = await snap();
        expect(s.matches('ready')).toBe(true);
        expect(s.context.problem?.kind).toBe('bad-answer');
      },
      configHandedOver: async () => {
        await ready();
        expect((await snap()).context.config).toBe(handed);
        expect((await started).link().reads).toBe(readsAtReady);
      },
      failed: async () => {
        const s = await snap();
        expect(s.matches('failed')).toBe(true);
        expect(s.context.problem?.kind).toBe('out-of-range');
        expect(s.can({ type: 'ble.reconnect' })).toBe(true);
      },
    },
  };
}

/** A harness whose connection is ready (the password machine not told yet). */
async function connectedHarness(): Promise<Harness> {
  const h = await bleHarness({ password: PASSWORD });
  h.connection.send({ type: 'ble.connect', transport: h.transport });
  await waitFor(h.connection, (s) => s.matches('ready'));
  return h;
}

async function submit(h: Harness, password: string, until: 'locked' | 'unlocked') {
  h.password.send({ type: 'password.submit', password });
  await waitFor(h.password, (s) => s.matches(until));
}

/** Events and state checks that run one path of `blePasswordModel` against the real machine. */
export function blePasswordModelDriver(): Params {
  const started = connectedHarness();
  let noPassword: ReturnType<typeof createActor<typeof passwordMachine>> | null = null;
  const snap = async () => (await started).password.getSnapshot();
  const lockedWith = async (message: string | null) => {
    const h = await started;
    const s = h.password.getSnapshot();
    expect(s.matches('locked')).toBe(true);
    expect(s.context.message).toBe(message);
    expect(h.device.isUnlocked).toBe(false);
  };
  return {
    events: {
      'link.ready': async () => {
        const h = await started;
        h.password.send({ type: 'password.connected', link: h.link() });
      },
      'link.readyNoPassword': async () => {
        const h = await started;
        // The same machine, told by the catalogue that this product has no password.
        noPassword = createActor(
          passwordMachine.provide({ actors: createBleActors({ codec: h.codec, product }).password }),
          {
            input: { needsPassword: false },
            inspect: recordCoverage,
          },
        ).start();
        noPassword.send({ type: 'password.connected', link: h.link() });
      },
      'password.linkDropped': async () => {
        const h = await started;
        h.link().drop();
        h.password.send({ type: 'password.submit', password: PASSWORD });
        await waitFor(h.password, (s) => s.matches('locked') && s.context.problem !== null);
      },
      'password.wrong': async () => submit(await started, '42abc', 'locked'),
      'password.tooLong': async () => submit(await started, '0042abc0042abc004', 'locked'),
      'password.right': async () => submit(await started, PASSWORD, 'unlocked'),
      'link.dropped': async () => {
        const h = await started;
        h.link().drop();
        h.password.send({ type: 'password.disconnected', forget: false });
      },
      'link.back': async () => {
        const h = await started;
        await backAfterBackoff(h);
        h.password.send({ type: 'password.connected', link: h.link() });
        await waitFor(h.password, (s) => s.matches('unlocked'));
      },
      'ble.disconnect': async () => {
        const h = await started;
        h.connection.send({ type: 'ble.disconnect' });
        h.password.send({ type: 'password.disconnected', forget: true });
      },
    },
    states: {
      disconnected: async () => {
        const s = await snap();
        expect(s.matches('disconnected')).toBe(true);
        expect(s.context.accepted).toBeNull();
      },
      forgotten: async () => {
        const h = await started;
        const s = h.password.getSnapshot();
        expect(s.matches('disconnected')).toBe(true);
        expect(s.context.accepted).toBeNull();
        expect(h.device.isUnlocked).toBe(false);
      },
      locked: () => lockedWith(null),
      open: async () => {
        expect(noPassword?.getSnapshot().matches('open')).toBe(true);
        // Nothing was asked of the device.
        expect((await started).device.isUnlocked).toBe(false);
      },
      checkFailed: async () => {
        const s = await snap();
        expect(s.matches('locked')).toBe(true);
        expect(s.context.problem?.kind).not.toBe('unexpected');
        expect(s.context.message).toBe(s.context.problem?.message);
        expect(s.context.accepted).toBeNull();
      },
      wrong: () => lockedWith(PASSWORD_MESSAGES.wrong),
      tooLong: () => lockedWith(PASSWORD_MESSAGES.tooLong),
      unlocked: async () => {
        const h = await started;
        expect(h.password.getSnapshot().matches('unlocked')).toBe(true);
        expect(h.device.isUnlocked).toBe(true);
      },
      away: async () => {
        const s = await snap();
        // The link is gone but the accepted password is kept, to give again on its own.
        expect(s.matches('disconnected')).toBe(true);
        expect(s.context.accepted).toBe(PASSWORD);
      },
    },
  };
}

/** What the simulated device holds now, decoded. */
const stored = (h: Harness) =>
  decodeConfiguration(
    h.codec,
    product.config,
    h.device.request(h.codec.buildFrame(OPCODE.readConfiguration, 255)),
  ).values;

/** Events and state checks that run one path of `bleWriteModel` against the real machine. */
export function bleWriteModelDriver(): Params {
  const started = (async () => {
    const h = await connectedHarness();
    h.password.send({ type: 'password.connected', link: h.link() });
    await submit(h, PASSWORD, 'unlocked');
    return h;
  })();
  let next = 40;
  let written = 0;
  let before: unknown;

  /** A dropped link is back and unlocked before the next write. */
  const readyToWrite = async () => {
    const h = await started;
    if (h.connection.getSnapshot().matches('reconnecting')) {
      await backAfterBackoff(h);
      h.password.send({ type: 'password.disconnected', forget: false });
      h.password.send({ type: 'password.connected', link: h.link() });
      await waitFor(h.password, (s) => s.matches('unlocked'));
    }
    return h;
  };
  const send = async (
    edits: Record<string, unknown>,
    until: 'done' | 'failed' | 'invalid',
    base?: Uint8Array,
  ) => {
    const h = await readyToWrite();
    const config = h.connection.getSnapshot().context.config;
    if (!config) throw new Error('nothing read yet');
    before = stored(h).maxChargeCurrent;
    const groups = buildForm(product.config, config.decoded, { excludedGroups: EXCLUDED_GROUPS });
    h.write.send({ type: 'config.write', link: h.link(), groups, values: edits, base: base ?? config.frame });
    await waitFor(h.write, (s) => s.matches(until));
    return h;
  };
  const aValue = () => {
    next += 1.5;
    return next;
  };
  return {
    events: {
      'write.valid': async () => {
        written = aValue();
        await send({ maxChargeCurrent: written }, 'done');
      },
      'write.answerDamaged': async () => {
        const h = await readyToWrite();
        h.link().faults.push('corrupt-next-read');
        written = aValue();
        await send({ maxChargeCurrent: written }, 'done');
      },
      'write.invalid': async () => {
        await send({ maxChargeCurrent: 120 }, 'invalid');
      },
      'write.linkDropped': async () => {
        const h = await readyToWrite();
        h.link().faults.push('drop-before-write');
        await send({ maxChargeCurrent: aValue() }, 'failed');
      },
      'write.readBackDiffers': async () => {
        const h = await readyToWrite();
        h.link().faults.push('alter-next-read');
        await send({ maxChargeCurrent: aValue() }, 'failed');
      },
      'write.deviceLocked': async () => {
        const h = await readyToWrite();
        // Another app gave it a wrong password: it is locked again.
        await sendPassword(h.codec, h.link(), product, 'wrong');
        await send({ maxChargeCurrent: aValue() }, 'failed');
      },
      'write.readBackLost': async () => {
        const h = await readyToWrite();
        h.link().faults.push('drop-before-read-back');
        written = aValue();
        await send({ maxChargeCurrent: written }, 'failed');
      },
      'write.ignored': async () => {
        const h = await readyToWrite();
        h.link().faults.push('ignore-next-write');
        await send({ maxChargeCurrent: aValue() }, 'failed');
      },
      'write.staleBase': async () => {
        await send({ maxChargeCurrent: aValue() }, 'failed', new Uint8Array(8));
      },
      'config.dismiss': async () => {
        const h = await started;
        h.write.send({ type: 'config.dismiss' });
      },
    },
    states: {
      idle: async () => {
        expect((await started).write.getSnapshot().matches('idle')).toBe(true);
      },
      dismissed: async () => {
        const s = (await started).write.getSnapshot();
        expect(s.matches('idle')).toBe(true);
        expect(s.can({ type: 'config.dismiss' })).toBe(false);
      },
      done: async () => {
        const h = await started;
        const s = h.write.getSnapshot();
        expect(s.matches('done')).toBe(true);
        expect(s.context.failure).toBeNull();
        // Done only once the device holds exactly what was written.
        expect(stored(h).maxChargeCurrent).toBe(written);
        expect(s.context.readBack?.decoded.values.maxChargeCurrent).toBe(written);
      },
      invalid: async () => {
        const h = await started;
        const s = h.write.getSnapshot();
        expect(s.matches('invalid')).toBe(true);
        expect(s.context.fieldErrors).toEqual([
          { field: 'maxChargeCurrent', message: 'Max charge current must be at most 100 A' },
        ]);
        expect(stored(h).maxChargeCurrent).toBe(before);
      },
      lost: async () => {
        const h = await started;
        const s = h.write.getSnapshot();
        expect(s.matches('failed')).toBe(true);
        expect(s.context.failure).toEqual({ message: WRITE_MESSAGES.lost, deviceKept: 'unknown' });
        expect(stored(h).maxChargeCurrent).toBe(before);
      },
      doneAgain: async () => {
        const h = await started;
        expect(h.write.getSnapshot().matches('done')).toBe(true);
        expect(stored(h).maxChargeCurrent).toBe(written);
      },
      refused: async () => {
        const h = await started;
        const s = h.write.getSnapshot();
        expect(s.matches('failed')).toBe(true);
        expect(s.context.failure).toEqual({
          message: `The device is locked: give its password first. ${WRITE_MESSAGES.kept}`,
          deviceKept: 'old',
        });
        expect(stored(h).maxChargeCurrent).toBe(before);
      },
      unreadable: async () => {
        const h = await started;
        const s = h.write.getSnapshot();
        expect(s.matches('failed')).toBe(true);
        expect(s.context.failure).toEqual({ message: WRITE_MESSAGES.unreadable, deviceKept: 'unknown' });
        // The device did take it: only the check could not be made.
        expect(stored(h).maxChargeCurrent).toBe(written);
      },
      kept: async () => {
        const h = await started;
        const s = h.write.getSnapshot();
        expect(s.matches('failed')).toBe(true);
        expect(s.context.failure).toEqual({ message: WRITE_MESSAGES.kept, deviceKept: 'old' });
        expect(stored(h).maxChargeCurrent).toBe(before);
      },
      notSent: async () => {
        const h = await started;
        const s = h.write.getSnapshot();
        expect(s.matches('failed')).toBe(true);
        expect(s.context.failure?.deviceKept).toBe('old');
        expect(s.context.failure?.message).toMatch(/ Nothing was sent to the device\.$/);
        expect(stored(h).maxChargeCurrent).toBe(before);
      },
      different: async () => {
        const s = (await started).write.getSnapshot();
        expect(s.matches('failed')).toBe(true);
        expect(s.context.failure).toEqual({
          message: WRITE_MESSAGES.different(['modbusAddress']),
          deviceKept: 'different',
        });
      },
    },
  };
}
