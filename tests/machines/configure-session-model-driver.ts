import { expect } from 'vitest';
import { waitFor } from 'xstate';
import type { TestParam } from 'xstate/graph';
import { MAX_RECONNECT_ATTEMPTS } from '../../machines/ble/connection-machine.ts';
import { WRITE_MESSAGES } from '../../machines/ble/write-machine.ts';
import { TransportError } from '../../src/ble/transport-error.ts';
import { decodeConfiguration } from '../../src/device-config/decode-values.ts';
import { encodeConfiguration } from '../../src/device-config/encode-form.ts';
import { EXCLUDED_GROUPS } from '../../src/device-config/excluded-groups.ts';
import { buildForm } from '../../src/device-config/form-fields.ts';
import { OPCODE } from '../../src/device-protocol/protocol.ts';
import type { SimulatedDevice } from '../../src/device-sim/simulated-device.ts';
import { product } from './ble-harness.ts';
import {
  DEMO_PASSWORD,
  DEVICE_ADDRESS,
  PASSWORD,
  PHONE_TIME,
  type SessionHarness,
  sessionHarness,
} from './configure-session-harness.ts';

// biome-ignore lint/suspicious/noExplicitAny: TestParam is generic over the model's snapshot and events
type Params = TestParam<any, any>;

/** The frame a device answers `Read configuration` with. */
const readFrame = (h: SessionHarness, device: SimulatedDevice) =>
  device.request(h.codec.buildFrame(OPCODE.readConfiguration, 255));

/** A setting changed on the device itself (its own display), behind the session's back. */
function changeOnDevice(h: SessionHarness, values: Record<string, number>) {
  const base = readFrame(h, h.real.device);
  const decoded = decodeConfiguration(h.codec, product.config, base);
  const groups = buildForm(product.config, decoded, { excludedGroups: EXCLUDED_GROUPS });
  const result = encodeConfiguration(h.codec, product.config, groups, values, base, {
    opcode: OPCODE.writeConfiguration,
  });
  if (!result.ok) throw new Error(result.errors[0]?.message);
  h.real.device.request(result.frame);
}

/** The device's name set on the device to one the form's rule refuses ("#X5000"). */
function oddNameOnDevice(h: SessionHarness) {
  const frame = readFrame(h, h.real.device);
  const first = product.config.rawData.find((item) => item.name === 'name_00');
  if (!first) throw new Error('no name_00');
  frame[0] = OPCODE.writeConfiguration;
  frame[first.buffer.position] = '#'.charCodeAt(0);
  h.codec.sealFrame(frame);
  h.real.device.request(frame);
}

/** The settings template the paths write: two settings, in the form's units. */
const TEMPLATE = { maxChargeCurrent: 35, workMode: 2 };

/** The device holds the template, and its history record names it. */
async function templateHeld(h: SessionHarness) {
  expect(h.children().write.getSnapshot().matches('done')).toBe(true);
  expect(h.stored(h.real.device)).toMatchObject({ maxChargeCurrent: 35, workMode: 2 });
  await waitFor(h.history(), (s) => s.matches('shown') && h.recorded.length === 1);
  expect(h.recorded[0]?.template).toBe('Barn standard');
  expect(h.recorded[0]?.changes.map((c) => `${c.label}: ${c.newValue}`)).toEqual(
    expect.arrayContaining(['Max charge current: 35 A', 'Work mode: Backup']),
  );
}

/** Events and state checks that run one path of `configureSessionModel` against the real machine. */
export function configureSessionModelDriver(): Params {
  const started = sessionHarness();
  let via: 'bluetooth' | 'demo' = 'bluetooth';
  let next = 40;
  let typed = '';
  let onDevice = 80;
  let realConnect: (() => Promise<void>) | undefined;
  /** The chooser is never shown again to get a dropped link back. */
  let choosersAtDrop = 0;
  const snap = async () => (await started).session.getSnapshot();
  const context = async () => (await snap()).context;
  const nextValue = () => {
    next += 1.5;
    return next;
  };
  const unlockedAgain = async (h: SessionHarness) => {
    await waitFor(h.session, (s) => s.matches({ link: 'open' }));
    await waitFor(h.children().password, (s) => s.matches('unlocked'));
  };
  const notConnected = async () => {
    const h = await started;
    const connection = h.children().connection.getSnapshot();
    expect(connection.matches('idle')).toBe(true);
    expect(connection.context.problem).toBeNull();
    expect(h.session.getSnapshot().matches({ link: 'closed' })).toBe(true);
  };
  const following = async () => {
    const h = await started;
    const s = h.session.getSnapshot();
    expect(s.matches({ form: 'following' })).toBe(true);
    expect(s.context.values.maxChargeCurrent).toBe(s.context.device?.decoded.values.maxChargeCurrent);
  };
  const forgotten = async () => {
    const h = await started;
    expect(h.session.getSnapshot().matches({ link: 'closed' })).toBe(true);
    expect(h.children().password.getSnapshot().context.accepted).toBeNull();
    expect(h.link().connected).toBe(false);
  };
  const written = async (expected: number) => {
    const h = await started;
    const s = h.session.getSnapshot();
    expect(s.matches({ form: 'following' })).toBe(true);
    expect(h.children().write.getSnapshot().matches('done')).toBe(true);
    const device = via === 'demo' ? h.demo.device : h.real.device;
    expect(h.stored(device).maxChargeCurrent).toBe(expected);
    expect(s.context.values.maxChargeCurrent).toBe(expected);
  };
  return {
    events: {
      'bluetooth.connect': async () => {
        const h = await started;
        h.chooserAnswersAgain();
        via = 'bluetooth';
        h.session.send({ type: 'session.connect', via });
        await waitFor(h.session, (s) => s.matches({ link: 'open' }));
      },
      'demo.connect': async () => {
        const h = await started;
        via = 'demo';
        h.session.send({ type: 'session.connect', via });
        await waitFor(h.session, (s) => s.matches({ link: 'open' }));
      },
      'chooser.closed': async () => {
        const h = await started;
        h.closeChooserNextTime();
        h.session.send({ type: 'session.connect', via: 'bluetooth' });
        await waitFor(h.children().connection, (s) => s.matches('idle') && s.context.transport !== null);
      },
      'connect.fails': async () => {
        const h = await started;
        h.failChooserNextTime();
        h.session.send({ type: 'session.connect', via: 'bluetooth' });
        await waitFor(h.children().connection, (s) => s.matches('failed'));
      },
      'failure.dismissed': async () => {
        const h = await started;
        h.session.send({ type: 'session.disconnect' });
        await waitFor(h.children().connection, (s) => s.matches('idle'));
      },
      'password.right': async () => {
        const h = await started;
        h.session.send({ type: 'password.submit', password: via === 'demo' ? DEMO_PASSWORD : PASSWORD });
        await waitFor(h.children().password, (s) => s.matches('unlocked'));
      },
      // Specification §9: getConfigInterval is 20000 ms, pinned here rather than read from the machine.
      'interval.elapsed': async () => {
        const h = await started;
        onDevice = nextValue();
        changeOnDevice(h, { maxChargeCurrent: onDevice });
        h.clock.increment(20_000);
        await waitFor(h.session, (s) => s.context.device?.decoded.values.maxChargeCurrent === onDevice);
      },
      'field.edited': async () => {
        const h = await started;
        typed = String(nextValue());
        h.session.send({ type: 'form.change', name: 'maxChargeCurrent', value: typed });
      },
      'write.asRead': async () => {
        const h = await started;
        h.session.send({ type: 'form.write' });
        await waitFor(h.session, (s) => s.matches({ form: 'following' }) && !s.matches({ form: 'writing' }));
        await waitFor(h.children().write, (s) => s.matches('done'));
      },
      'device.oddName': async () => {
        const h = await started;
        oddNameOnDevice(h);
        h.clock.increment(20_000);
        await waitFor(h.session, (s) => String(s.context.values.deviceName).startsWith('#'));
        h.session.send({ type: 'form.write' });
      },
      'write.valid': async () => {
        const h = await started;
        h.session.send({ type: 'form.write' });
        await waitFor(h.children().write, (s) => s.matches('done'));
        await waitFor(h.session, (s) => s.matches({ form: 'following' }));
      },
      'write.outOfRange': async () => {
        const h = await started;
        h.session.send({ type: 'form.change', name: 'maxChargeCurrent', value: '120' });
        h.session.send({ type: 'form.write' });
      },
      'write.impossibleDate': async () => {
        const h = await started;
        h.session.send({ type: 'form.change', name: 'deviceClock', value: '2026-02-30T10:00' });
        h.session.send({ type: 'form.write' });
        await waitFor(h.children().write, (s) => s.matches('invalid'));
        await waitFor(h.session, (s) => s.matches({ form: 'edited' }));
      },
      'write.linkDropped': async () => {
        const h = await started;
        h.link().faults.push('drop-before-write');
        h.session.send({ type: 'form.write' });
        await waitFor(h.session, (s) => s.matches({ form: 'edited' }) && s.matches({ link: 'lost' }));
      },
      'form.revert': async () => {
        const h = await started;
        h.session.send({ type: 'form.revert' });
      },
      'link.dropped': async () => {
        const h = await started;
        choosersAtDrop = h.chooserShown();
        h.link().drop();
        await waitFor(h.session, (s) => s.matches({ link: 'lost' }));
      },
      'link.back': async () => {
        const h = await started;
        await waitFor(h.children().connection, (s) => s.matches({ reconnecting: 'waiting' }));
        h.clock.increment(1000);
        await unlockedAgain(h);
      },
      'link.staysAway': async () => {
        const h = await started;
        const link = h.link();
        realConnect = link.connect.bind(link);
        link.connect = async () => {
          throw new TransportError('out-of-range', 'The device is out of range.');
        };
        for (let attempt = 1; attempt <= MAX_RECONNECT_ATTEMPTS; attempt += 1) {
          await waitFor(h.children().connection, (s) => s.matches({ reconnecting: 'waiting' }));
          h.clock.increment(1000 * 2 ** (attempt - 1));
          await waitFor(h.children().connection, (s) => !s.matches({ reconnecting: 'trying' }));
        }
        await waitFor(h.children().connection, (s) => s.matches('failed'));
      },
      'session.retry': async () => {
        const h = await started;
        if (realConnect) h.link().connect = realConnect;
        h.session.send({ type: 'session.reconnect' });
        await waitFor(h.children().connection, (s) => s.matches({ reconnecting: 'waiting' }));
        h.clock.increment(1000);
        await unlockedAgain(h);
      },
      'ble.disconnect': async () => {
        const h = await started;
        h.session.send({ type: 'session.disconnect' });
        await waitFor(h.session, (s) => s.matches({ link: 'closed' }));
      },
      'command.run': async () => {
        const h = await started;
        const restart = product.entry.commands.find((c) => c.name === 'Restart inverter');
        if (!restart) throw new Error('no restart command');
        h.session.send({ type: 'command.ask', command: restart });
        h.session.send({ type: 'command.confirm' });
        await waitFor(h.children().command, (s) => s.matches('done'));
      },
      'provision.given': async () => {
        const h = await started;
        h.session.send({ type: 'provision.start' });
        const provision = h.children().provision;
        if (!provision) throw new Error('a signed-in session with a serial provisions');
        await waitFor(provision, (s) => s.matches('given'));
      },
      'provision.dismissed': async () => (await started).session.send({ type: 'provision.dismiss' }),
      'provision.onDemo': async () => {
        const h = await started;
        expect(h.session.getSnapshot().can({ type: 'provision.start' })).toBe(false);
        h.session.send({ type: 'provision.start' });
      },
      'command.cancelled': async () => {
        const h = await started;
        const restart = product.entry.commands.find((c) => c.name === 'Restart inverter');
        if (!restart) throw new Error('no restart command');
        h.session.send({ type: 'command.ask', command: restart });
        h.session.send({ type: 'command.cancel' });
      },
      'command.dismissed': async () => {
        (await started).session.send({ type: 'command.dismiss' });
      },
      'history.refresh': async () => {
        const h = await started;
        h.session.send({ type: 'history.refresh' });
        await waitFor(h.history(), (s) => s.matches('shown'));
      },
      'history.more': async () => {
        (await started).session.send({ type: 'history.more' });
      },
      'result.dismissed': async () => {
        (await started).session.send({ type: 'form.dismiss' });
      },
      'template.written': async () => {
        const h = await started;
        h.session.send({ type: 'template.write', name: 'Barn standard', settings: TEMPLATE });
        await waitFor(h.children().write, (s) => s.matches('done'));
        await waitFor(h.session, (s) => s.matches({ form: 'following' }));
      },
      'template.linkDropped': async () => {
        const h = await started;
        h.link().faults.push('drop-before-write');
        h.session.send({ type: 'template.write', name: 'Barn standard', settings: TEMPLATE });
        await waitFor(h.children().write, (s) => s.matches('failed'));
        await waitFor(h.session, (s) => !s.matches({ form: 'writing' }));
      },
      'page.left': async () => {
        (await started).session.stop();
      },
    },
    states: {
      notConnected: async () => {
        await notConnected();
        expect((await context()).demoPassword).toBe(DEMO_PASSWORD);
      },
      chooserClosed: notConnected,
      failed: async () => {
        const h = await started;
        const connection = h.children().connection.getSnapshot();
        expect(connection.matches('failed')).toBe(true);
        expect(connection.context.problem?.kind).toBe('unavailable');
        expect(connection.can({ type: 'ble.reconnect' })).toBe(false);
      },
      failureDismissed: notConnected,
      locked: async () => {
        const h = await started;
        expect(h.children().password.getSnapshot().matches('locked')).toBe(true);
        expect(h.session.getSnapshot().matches({ form: 'following' })).toBe(true);
        expect((await context()).values.maxChargeCurrent).toBe(80);
      },
      following: async () => {
        await following();
        const c = await context();
        // The clock field is the phone's time: a change a write will make.
        expect(c.values.deviceClock).toBe('2026-11-25T02:14');
      },
      followedDevice: async () => {
        await following();
        expect((await context()).values.maxChargeCurrent).toBe(onDevice);
      },
      clockSet: async () => {
        const h = await started;
        await following();
        const values = h.stored(h.real.device);
        expect([
          values.clockYear,
          values.clockMonth,
          values.clockDay,
          values.clockHour,
          values.clockMinute,
        ]).toEqual([
          PHONE_TIME.getFullYear(),
          PHONE_TIME.getMonth() + 1,
          PHONE_TIME.getDate(),
          PHONE_TIME.getHours(),
          PHONE_TIME.getMinutes(),
        ]);
        await waitFor(h.history(), (s) => s.matches('shown') && h.recorded.length === 1);
        expect(h.recorded[0]?.changes.map((c) => c.label)).toEqual(['Device date and time']);
      },
      historyRead: async () => {
        const h = await started;
        const history = h.children().history?.getSnapshot();
        expect(history?.matches('shown')).toBe(true);
        expect(history?.context.entries?.length).toBe(h.recorded.length);
      },
      olderAsked: async () => {
        const h = await started;
        expect(h.children().history?.getSnapshot().matches('shown')).toBe(true);
      },
      resultDismissed: async () => {
        const h = await started;
        await following();
        expect(h.children().write.getSnapshot().matches('idle')).toBe(true);
      },
      oddNameRefused: async () => {
        const h = await started;
        const s = h.session.getSnapshot();
        expect(s.matches({ form: 'following' })).toBe(true);
        expect(s.context.errors).toEqual({ deviceName: 'Device name is not valid' });
        expect(h.children().write.getSnapshot().matches('idle')).toBe(true);
      },
      lostFollowing: async () => {
        const h = await started;
        expect(h.session.getSnapshot().matches({ link: 'lost' })).toBe(true);
        expect(h.children().password.getSnapshot().matches('disconnected')).toBe(true);
        expect(h.children().password.getSnapshot().context.accepted).toBe(PASSWORD);
      },
      backFollowing: async () => {
        const h = await started;
        await following();
        expect(h.children().password.getSnapshot().matches('unlocked')).toBe(true);
        expect(h.chooserShown()).toBe(choosersAtDrop);
      },
      reconnectFailed: async () => {
        const h = await started;
        expect(h.children().connection.getSnapshot().matches('failed')).toBe(true);
        expect(h.children().connection.getSnapshot().can({ type: 'ble.reconnect' })).toBe(true);
        expect(h.session.getSnapshot().matches({ link: 'lost' })).toBe(true);
      },
      disconnectedWhileLost: forgotten,
      commandDone: async () => {
        const h = await started;
        expect(h.children().command.getSnapshot().matches('done')).toBe(true);
        expect(h.real.device.commandLog.map((c) => c.name)).toEqual(['Restart inverter']);
      },
      provisioned: async () => {
        const h = await started;
        expect(h.children().provision?.getSnapshot().matches('given')).toBe(true);
        expect(h.real.device.provisioning).toEqual({
          secret: `secret-number-${h.issued()}`,
          address: DEVICE_ADDRESS,
        });
      },
      provisionDismissed: async () => {
        const h = await started;
        expect(h.children().provision?.getSnapshot().matches('idle')).toBe(true);
        expect(h.real.device.provisioning?.address).toBe(DEVICE_ADDRESS);
      },
      demoNotProvisioned: async () => {
        const h = await started;
        expect(h.children().provision?.getSnapshot().matches('idle')).toBe(true);
        expect(h.issued()).toBe(0);
        expect(h.demo.device.provisioning).toBeNull();
      },
      commandDismissed: async () => {
        expect((await started).children().command.getSnapshot().matches('idle')).toBe(true);
      },
      commandCancelled: async () => {
        const h = await started;
        expect(h.children().command.getSnapshot().matches('idle')).toBe(true);
        expect(h.real.device.commandLog).toEqual([]);
      },
      pageLeft: async () => {
        const h = await started;
        expect(h.session.getSnapshot().status).toBe('stopped');
        expect(h.link().connected).toBe(false);
      },
      edited: async () => {
        const h = await started;
        const s = h.session.getSnapshot();
        expect(s.matches({ form: 'edited' })).toBe(true);
        expect(s.context.values.maxChargeCurrent).toBe(typed);
        expect(h.stored(via === 'demo' ? h.demo.device : h.real.device).maxChargeCurrent).not.toBe(
          Number(typed),
        );
      },
      editsKept: async () => {
        const s = await snap();
        expect(s.matches({ form: 'edited' })).toBe(true);
        expect(s.context.values.maxChargeCurrent).toBe(typed);
        const field = s.context.groups.flatMap((g) => g.fields).find((f) => f.name === 'maxChargeCurrent');
        expect(field?.deviceValue).toBe(onDevice);
      },
      verified: async () => {
        const h = await started;
        await written(Number(typed));
        await waitFor(h.history(), (s) => s.matches('shown') && h.recorded.length > 0);
        const newest = h.recorded.at(-1);
        expect(newest?.transport).toBe('web-bluetooth');
        expect(newest?.changes.find((c) => c.field === 'maxChargeCurrent')?.newValue).toBe(`${typed} A`);
      },
      disconnected: forgotten,
      refusedAtForm: async () => {
        const h = await started;
        const s = h.session.getSnapshot();
        expect(s.matches({ form: 'edited' })).toBe(true);
        expect(s.context.errors.maxChargeCurrent).toBe('Max charge current must be at most 100 A');
        expect(h.children().write.getSnapshot().matches('idle')).toBe(true);
        expect(h.stored(h.real.device).maxChargeCurrent).toBe(onDevice);
      },
      refusedByEncoder: async () => {
        const h = await started;
        const s = h.session.getSnapshot();
        expect(s.context.errors.deviceClock).toBe('Device date and time is not a real date and time');
        expect(s.context.values.deviceClock).toBe('2026-02-30T10:00');
        expect(h.stored(h.real.device).clockYear).toBe(2025);
      },
      lostWithEdits: async () => {
        const h = await started;
        expect(h.children().write.getSnapshot().context.failure?.message).toBe(WRITE_MESSAGES.lost);
        expect((await context()).values.maxChargeCurrent).toBe(typed);
        expect(h.stored(h.real.device).maxChargeCurrent).toBe(onDevice);
      },
      backWithEdits: async () => {
        const h = await started;
        expect(h.children().password.getSnapshot().matches('unlocked')).toBe(true);
        expect(h.session.getSnapshot().matches({ form: 'edited' })).toBe(true);
        expect((await context()).values.maxChargeCurrent).toBe(typed);
      },
      reverted: async () => {
        await following();
        const c = await context();
        expect(c.errors).toEqual({});
        expect(c.values.maxChargeCurrent).toBe(onDevice);
      },
      demoLocked: async () => {
        const h = await started;
        expect(h.children().password.getSnapshot().matches('locked')).toBe(true);
        expect((await context()).via).toBe('demo');
      },
      demoFollowing: following,
      demoEdited: async () => {
        const s = await snap();
        expect(s.matches({ form: 'edited' })).toBe(true);
        expect(s.context.values.maxChargeCurrent).toBe(typed);
      },
      templateApplied: async () => {
        const h = await started;
        await templateHeld(h);
        expect(h.session.getSnapshot().context.values.maxChargeCurrent).toBe(35);
      },
      templateOverEdits: async () => {
        const h = await started;
        await templateHeld(h);
        // The typed value gave way to what the device now holds.
        expect(h.session.getSnapshot().context.values.maxChargeCurrent).toBe(35);
      },
      templateLost: async () => {
        const h = await started;
        const s = h.session.getSnapshot();
        expect(s.matches({ form: 'following' })).toBe(true);
        expect(h.children().write.getSnapshot().context.failure?.message).toBe(WRITE_MESSAGES.lost);
        expect(h.stored(h.real.device).maxChargeCurrent).toBe(onDevice);
        expect(h.recorded).toEqual([]);
      },
      demoVerified: async () => {
        const h = await started;
        await written(Number(typed));
        // The demo device is nobody's device: the real one and its history are untouched.
        expect(h.stored(h.real.device).maxChargeCurrent).toBe(80);
        expect(h.recorded).toEqual([]);
      },
    },
  };
}
