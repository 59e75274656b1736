import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { GET_CONFIG_INTERVAL_MS } from '../../machines/ble/connection-machine.ts';
import { PASSWORD_MESSAGES } from '../../machines/ble/password-machine.ts';
import { WRITE_MESSAGES } from '../../machines/ble/write-machine.ts';
import { decodeConfiguration } from '../../src/device-config/decode-values.ts';
import { EXCLUDED_GROUPS } from '../../src/device-config/excluded-groups.ts';
import { buildForm } from '../../src/device-config/form-fields.ts';
import { OPCODE } from '../../src/device-protocol/protocol.ts';
import { bleHarness, product } from './ble-harness.ts';

type Harness = Awaited<ReturnType<typeof bleHarness>>;
let running: Harness | undefined;
afterEach(() => {
  running?.connection.stop();
  running?.password.stop();
  running?.write.stop();
  running = undefined;
});

async function connected(options: { password?: string } = {}) {
  const h = await bleHarness(options);
  running = h;
  h.connection.send({ type: 'ble.connect', transport: h.transport });
  await waitFor(h.connection, (s) => s.matches('ready'));
  h.password.send({ type: 'password.connected', link: h.link() });
  return h;
}

async function unlocked(password = '0000') {
  const h = await connected(password === '0000' ? {} : { password });
  h.password.send({ type: 'password.submit', password });
  await waitFor(h.password, (s) => s.matches('unlocked'));
  return h;
}

/** Sends the form with `edits` over what the device holds now. */
function write(h: Harness, edits: Record<string, unknown>) {
  const config = h.connection.getSnapshot().context.config;
  if (!config) throw new Error('nothing read yet');
  const groups = buildForm(product.config, config.decoded, { excludedGroups: EXCLUDED_GROUPS });
  h.write.send({ type: 'config.write', link: h.link(), groups, values: edits, base: config.frame });
}

const stored = (h: Harness) =>
  decodeConfiguration(
    h.codec,
    product.config,
    h.device.request(h.codec.buildFrame(OPCODE.readConfiguration, 255)),
  ).values;

describe('the Bluetooth connection machine', () => {
  it('goes from idle through choosing, connecting and discovering to ready with the configuration read', async () => {
    const h = await bleHarness();
    running = h;
    const seen: string[] = [];
    h.connection.subscribe((s) => seen.push(JSON.stringify(s.value)));
    h.connection.send({ type: 'ble.connect', transport: h.transport });
    await waitFor(h.connection, (s) => s.matches('ready'));
    expect(seen).toEqual(expect.arrayContaining(['"choosing"', '"connecting"', '"discovering"']));
    expect(h.connection.getSnapshot().context.config?.decoded.values.deviceName).toBe('HX5000');
  });

  it('returns to idle without an error when the chooser is closed', async () => {
    const h = await bleHarness();
    running = h;
    h.connection.send({
      type: 'ble.connect',
      transport: { kind: 'web-bluetooth', choose: async () => null, known: async () => null },
    });
    await waitFor(h.connection, (s) => s.matches('idle') && s.context.transport !== null);
    expect(h.connection.getSnapshot().context.problem).toBeNull();
  });

  it('reads the configuration again every 20 000 ms while connected, and the live values move', async () => {
    const h = await connected();
    const reads = h.link().reads;
    // The whole set of live values: solar power alone follows the sun and stays 0 at night.
    const liveNow = () => JSON.stringify(h.connection.getSnapshot().context.config?.decoded.raw);
    const before = liveNow();
    h.time.t += 30_000;
    h.clock.increment(GET_CONFIG_INTERVAL_MS - 1);
    expect(h.link().reads).toBe(reads);
    h.clock.increment(1);
    await waitFor(h.connection, () => liveNow() !== before);
    expect(h.link().reads).toBe(reads + 1);
  });

  it('reconnects a dropped link without the chooser, after a backoff', async () => {
    const h = await connected();
    h.link().drop();
    await waitFor(h.connection, (s) => s.matches('reconnecting'));
    h.clock.increment(1000);
    await waitFor(h.connection, (s) => s.matches('ready'));
    expect(h.chooserShown()).toBe(1);
  });

  it('fails after the bounded reconnection attempts when the device stays away', async () => {
    const h = await connected();
    const link = h.link();
    link.connect = async () => {
      throw new (await import('../../src/ble/transport-error.ts')).TransportError('out-of-range', 'gone');
    };
    link.drop();
    for (const wait of [1000, 2000, 4000]) {
      await waitFor(h.connection, (s) => s.matches({ reconnecting: 'waiting' }));
      h.clock.increment(wait);
      await waitFor(h.connection, (s) => !s.matches({ reconnecting: 'trying' }));
    }
    await waitFor(h.connection, (s) => s.matches('failed'));
    expect(h.connection.getSnapshot().context.problem?.kind).toBe('out-of-range');
  });
});

describe('the Bluetooth password machine', () => {
  it('says so for a wrong password and stays locked', async () => {
    const h = await connected();
    h.password.send({ type: 'password.submit', password: '1234' });
    await waitFor(h.password, (s) => s.matches('locked') && s.context.message !== null);
    expect(h.password.getSnapshot().context.message).toBe(PASSWORD_MESSAGES.wrong);
  });

  it('unlocks with the right password, leading zeros and all', async () => {
    const h = await unlocked('0042abc');
    expect(h.device.isUnlocked).toBe(true);
  });

  it('refuses a password over 16 characters without sending it', async () => {
    const h = await connected();
    h.password.send({ type: 'password.submit', password: '12345678901234567' });
    expect(h.password.getSnapshot().context.message).toBe(PASSWORD_MESSAGES.tooLong);
    expect(h.password.getSnapshot().matches('locked')).toBe(true);
  });

  it('gives the accepted password again on its own after a reconnect', async () => {
    const h = await unlocked();
    h.password.send({ type: 'password.disconnected', forget: false });
    h.link().drop();
    h.clock.increment(1000);
    await waitFor(h.connection, (s) => s.matches('ready'));
    h.password.send({ type: 'password.connected', link: h.link() });
    await waitFor(h.password, (s) => s.matches('unlocked'));
    expect(h.device.isUnlocked).toBe(true);
  });
});

describe('the Bluetooth write machine', () => {
  it('writes, reads back, verifies and only then reports done', async () => {
    const h = await unlocked();
    write(h, { maxChargeCurrent: 42.5, workMode: 2 });
    await waitFor(h.write, (s) => s.matches('done') || s.matches('failed'));
    expect(h.write.getSnapshot().value).toBe('done');
    expect(stored(h)).toMatchObject({ maxChargeCurrent: 42.5, workMode: 2 });
  });

  it('names the bad fields and sends nothing when the form is invalid', async () => {
    const h = await unlocked();
    const reads = h.link().reads;
    write(h, { maxChargeCurrent: 120 });
    await waitFor(h.write, (s) => s.matches('invalid'));
    expect(h.write.getSnapshot().context.fieldErrors).toEqual([
      { field: 'maxChargeCurrent', message: 'Max charge current must be at most 100 A' },
    ]);
    expect(h.link().reads).toBe(reads);
  });

  it('says the device kept its old configuration when the device refuses the write (locked)', async () => {
    const h = await connected();
    write(h, { maxChargeCurrent: 42.5 });
    await waitFor(h.write, (s) => s.matches('failed'));
    const { failure } = h.write.getSnapshot().context;
    expect(failure).toEqual({
      message: `The device is locked: give its password first. ${WRITE_MESSAGES.kept}`,
      deviceKept: 'old',
    });
    expect(stored(h).maxChargeCurrent).toBe(80);
  });

  it('fails clearly when the link drops mid-write, and the device keeps its old configuration', async () => {
    const h = await unlocked();
    h.link().faults.push('drop-before-write');
    write(h, { maxChargeCurrent: 42.5 });
    await waitFor(h.write, (s) => s.matches('failed'));
    expect(h.write.getSnapshot().context.failure).toEqual({
      message: WRITE_MESSAGES.lost,
      deviceKept: 'unknown',
    });
    expect(stored(h).maxChargeCurrent).toBe(80);
  });

  it('checks by reading back when the answer to the write has a bad CRC', async () => {
    const h = await unlocked();
    h.link().faults.push('corrupt-next-read');
    write(h, { maxChargeCurrent: 42.5 });
    await waitFor(h.write, (s) => s.matches('done') || s.matches('failed'));
    // The device did store it; the damaged answer alone does not make the write fail or succeed.
    expect(h.write.getSnapshot().value).toBe('done');
    expect(h.link().reads).toBe(4);
  });

  it('reports a read-back that differs from what was written, naming the setting', async () => {
    const h = await unlocked();
    h.link().faults.push('alter-next-read');
    write(h, { maxChargeCurrent: 42.5 });
    await waitFor(h.write, (s) => s.matches('failed'));
    expect(h.write.getSnapshot().context.failure).toEqual({
      message: WRITE_MESSAGES.different(['modbusAddress']),
      deviceKept: 'different',
    });
  });
});
