import { beforeAll, describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/load-node.ts';
import type { Codec } from '../../src/codec/types.ts';
import { decodeConfiguration, defaultRawValues } from '../../src/device-config/decode-values.ts';
import { encodeConfiguration } from '../../src/device-config/encode-form.ts';
import { buildForm } from '../../src/device-config/form-fields.ts';
import { devicePasswordCodes } from '../../src/device-config/password.ts';
import {
  errorCodeName,
  OPCODE,
  provisioningPayload,
  readProvisioning,
} from '../../src/device-protocol/protocol.ts';
import { MemoryConfigStore, StorageConfigStore } from '../../src/device-sim/config-store.ts';
import { SimulatedDevice } from '../../src/device-sim/simulated-device.ts';
import { bundledProducts } from '../device-config/bundled-products.ts';

let codec: Codec;
beforeAll(async () => {
  codec = await loadCodec();
});

const products = bundledProducts();
const hybrid = products.find((p) => p.modelId === 'HX-5000');
if (!hybrid) throw new Error('HX-5000 missing');
const { entry, config } = hybrid;

/** Local noon: the sun is up, so solar power is well above zero. */
const NOON = new Date(2023, 10, 14, 12, 0).getTime();

function device(options: { store?: MemoryConfigStore; clock?: { t: number } } = {}) {
  const clock = options.clock ?? { t: NOON };
  const sim = new SimulatedDevice({
    codec,
    entry,
    config,
    serialNumber: 'HX5K-24-000123',
    now: () => clock.t,
    ...(options.store ? { store: options.store } : {}),
  });
  const command = (opcode: number, payload?: Uint8Array) =>
    sim.request(codec.buildFrame(opcode, 255, payload));
  /** Gives the factory password, as a client must before it writes in a connection. */
  const unlock = (password = '0000') =>
    command(OPCODE.checkPassword, Uint8Array.from(codec.passwordCodes(password)));
  return { sim, clock, command, unlock };
}

/** The write command a client sends after editing `values` on the form. */
function writeFrame(answer: Uint8Array, values: Record<string, unknown>): Uint8Array {
  const groups = buildForm(config, decodeConfiguration(codec, config, answer));
  const result = encodeConfiguration(codec, config, groups, values, answer, {
    opcode: OPCODE.writeConfiguration,
  });
  if (!result.ok) throw new Error(result.errors[0]?.message);
  return result.frame;
}

describe('the simulated device', () => {
  it('answers Read configuration with a sealed frame of its settings', () => {
    const answer = device().command(OPCODE.readConfiguration);
    expect(answer[0]).toBe(0x81);
    expect(() => codec.verifyFrame(answer, 255)).not.toThrow();
    expect(decodeConfiguration(codec, config, answer).values).toMatchObject({
      deviceName: 'HX5000',
      maxChargeCurrent: 80,
    });
  });

  it('keeps a written configuration, also for a new connection on the same store', () => {
    const store = new MemoryConfigStore();
    const { command, sim, unlock } = device({ store });
    unlock();
    const answer = sim.request(
      writeFrame(command(OPCODE.readConfiguration), { maxChargeCurrent: 42.5, deviceName: 'Barn' }),
    );
    expect(answer[0]).toBe(0x82);
    const later = device({ store }).command(OPCODE.readConfiguration);
    expect(decodeConfiguration(codec, config, later).values).toMatchObject({
      maxChargeCurrent: 42.5,
      deviceName: 'Barn',
    });
  });

  it('starts from its defaults where a stored value no longer fits its field', () => {
    const store = new MemoryConfigStore();
    store.save('HX5K-24-000123', { maxChargeCurrent: 1e9, name_00: -4, retiredItem: 7 });
    const answer = device({ store }).command(OPCODE.readConfiguration);
    expect(answer[0]).toBe(0x81);
    expect(decodeConfiguration(codec, config, answer).values).toMatchObject({
      maxChargeCurrent: 80,
      deviceName: 'HX5000',
    });
  });

  it('rejects a bad CRC with an error answer and changes nothing', () => {
    const store = new MemoryConfigStore();
    const { command, sim } = device({ store });
    const frame = writeFrame(command(OPCODE.readConfiguration), { maxChargeCurrent: 10 });
    frame[253] = (frame[253] ?? 0) ^ 0xff;
    const answer = sim.request(frame);
    expect([answer[0], errorCodeName(answer), answer[2]]).toEqual([
      0xee,
      'crcMismatch',
      OPCODE.writeConfiguration,
    ]);
    expect(
      decodeConfiguration(codec, config, command(OPCODE.readConfiguration)).values.maxChargeCurrent,
    ).toBe(80);
    expect(store.load('HX5K-24-000123')).toBeUndefined();
  });

  it('rejects a frame of the wrong length and changes nothing', () => {
    const { command, sim } = device();
    const frame = writeFrame(command(OPCODE.readConfiguration), { maxChargeCurrent: 10 });
    const short = frame.slice(0, 200);
    codec.sealFrame(short);
    expect(errorCodeName(sim.request(short))).toBe('frameLength');
    expect(
      decodeConfiguration(codec, config, command(OPCODE.readConfiguration)).values.maxChargeCurrent,
    ).toBe(80);
  });

  it('ignores live values carried by a write', () => {
    const { command, sim, unlock } = device();
    unlock();
    const frame = command(OPCODE.readConfiguration).slice();
    frame[0] = OPCODE.writeConfiguration;
    const pvPower = config.rawData.find((r) => r.name === 'pvPower');
    codec.encodeFields(frame, pvPower ? [pvPower.buffer] : [], [1]);
    codec.sealFrame(frame);
    sim.request(frame);
    expect(decodeConfiguration(codec, config, command(OPCODE.readLiveValues)).raw.pvPower).toBeGreaterThan(
      1000,
    );
  });

  it('refuses a write and a catalogue command before the password is given in this connection', () => {
    const store = new MemoryConfigStore();
    const { command, sim, unlock } = device({ store });
    const frame = writeFrame(command(OPCODE.readConfiguration), { maxChargeCurrent: 10 });
    expect([errorCodeName(sim.request(frame)), sim.read()[2]]).toEqual(['locked', OPCODE.writeConfiguration]);
    expect(errorCodeName(command(18))).toBe('locked');
    expect(unlock('0001')[1]).toBe(0);
    expect(errorCodeName(sim.request(frame))).toBe('locked');
    expect(store.load('HX5K-24-000123')).toBeUndefined();
    expect(unlock()[1]).toBe(1);
    expect(sim.request(frame)[0]).toBe(0x82);
  });

  it('locks again for every new connection', () => {
    const { command, sim, unlock } = device();
    unlock();
    sim.disconnect();
    sim.connect();
    const frame = writeFrame(command(OPCODE.readConfiguration), { maxChargeCurrent: 10 });
    expect(errorCodeName(sim.request(frame))).toBe('locked');
  });

  it('refuses a setting outside its form limits and keeps the old configuration', () => {
    const store = new MemoryConfigStore();
    const { command, sim, unlock } = device({ store });
    unlock();
    const frame = command(OPCODE.readConfiguration).slice();
    frame[0] = OPCODE.writeConfiguration;
    const item = config.rawData.find((r) => r.name === 'maxChargeCurrent');
    if (!item) throw new Error('maxChargeCurrent missing');
    codec.encodeFields(frame, [item.buffer], [1001]); // 100.1 A, the form allows 0…100
    codec.sealFrame(frame);
    const answer = sim.request(frame);
    expect([errorCodeName(answer), answer[2], answer[3]]).toEqual([
      'outOfRange',
      OPCODE.writeConfiguration,
      item.buffer.position,
    ]);
    expect(
      decodeConfiguration(codec, config, command(OPCODE.readConfiguration)).values.maxChargeCurrent,
    ).toBe(80);
    expect(store.load('HX5K-24-000123')).toBeUndefined();
  });

  it('checks the password against the stored one', () => {
    const { command } = device();
    expect(command(OPCODE.checkPassword, Uint8Array.from(codec.passwordCodes('0000')))[1]).toBe(1);
    expect(command(OPCODE.checkPassword, Uint8Array.from(codec.passwordCodes('00000')))[1]).toBe(0);
  });

  it('changes its live values as the clock moves, the same way for the same time', () => {
    const { command, clock } = device();
    const at = (t: number) => {
      clock.t = t;
      return decodeConfiguration(codec, config, command(OPCODE.readLiveValues)).raw;
    };
    const first = at(NOON);
    const later = at(NOON + 20_000);
    expect(later.pvPower).not.toBe(first.pvPower);
    expect(later.energyTotal).toBeGreaterThanOrEqual(first.energyTotal ?? 0);
    expect(at(NOON + 3_600_000).energyTotal).toBeGreaterThan(first.energyTotal ?? 0);
    expect(later.readingTime).toBe(Math.floor((NOON + 20_000) / 1000));
    expect(at(NOON)).toEqual(first);
    expect(later.fwMajor).toBe(first.fwMajor);
  });

  it('runs catalogue commands: Reset energy counters starts today and total at zero', () => {
    const { command, sim, clock, unlock } = device();
    unlock();
    clock.t += 3_600_000;
    const reset = command(18);
    expect([reset[0], reset[1]]).toEqual([0x92, 0]);
    expect(sim.commandLog.map((c) => c.name)).toEqual(['Reset energy counters']);
    expect(decodeConfiguration(codec, config, command(OPCODE.readLiveValues)).raw.energyToday).toBe(0);
  });

  it('answers an opcode it does not know, and a read before any command, with error answers', () => {
    const { command, sim } = device();
    expect(errorCodeName(sim.read())).toBe('noCommand');
    expect(errorCodeName(command(0x55))).toBe('unknownOpcode');
  });

  it('reports a negative RSSI in dBm that varies', () => {
    const { sim, clock } = device();
    const readings = Array.from({ length: 30 }, (_, i) => {
      clock.t += i * 1000;
      return sim.rssi();
    });
    for (const r of readings) expect(r).toBeLessThan(0);
    expect(new Set(readings).size).toBeGreaterThan(3);
  });

  it('persists to Web Storage and survives a damaged entry', () => {
    const data = new Map<string, string>();
    const storage = {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
    };
    const store = new StorageConfigStore(storage);
    store.save('BX10-25-004411', { soc: 50 });
    expect(new StorageConfigStore(storage).load('BX10-25-004411')).toEqual({ soc: 50 });
    data.set('device-sim:BX10-25-004411', '{not json');
    expect(store.load('BX10-25-004411')).toBeUndefined();
  });
});

describe.each(products)('a simulated $modelId', ({ entry: model, config: product, modelId }) => {
  it('keeps a setting written through its own form and reads it back after a restart', () => {
    const store = new MemoryConfigStore();
    const make = () =>
      new SimulatedDevice({ codec, entry: model, config: product, serialNumber: `${modelId}-1`, store });
    const sim = make();
    const password = devicePasswordCodes(defaultRawValues(product));
    sim.request(codec.buildFrame(OPCODE.checkPassword, model.write.bufferSize, Uint8Array.from(password)));
    const read = () => sim.request(codec.buildFrame(OPCODE.readConfiguration, model.write.bufferSize));
    const before = read();
    const groups = buildForm(product, decodeConfiguration(codec, product, before));
    const field = groups
      .flatMap((g) => g.fields)
      .find((f) => f.kind === 'number' && !f.disabled && f.rules.min && f.defaultValue !== f.rules.min.value);
    if (!field?.rules.min) throw new Error(`${modelId} has no editable bounded number field`);
    const edited = field.rules.min.value;
    const result = encodeConfiguration(codec, product, groups, { [field.name]: edited }, before, {
      opcode: OPCODE.writeConfiguration,
    });
    if (!result.ok) throw new Error(result.errors[0]?.message);
    expect(sim.request(result.frame)[0]).toBe(0x82);
    const restarted = make().request(codec.buildFrame(OPCODE.readConfiguration, model.write.bufferSize));
    expect(decodeConfiguration(codec, product, restarted).values[field.name]).toBe(edited);
  });
});

describe('Provision (0x05)', () => {
  const given = { secret: 'k'.repeat(43), address: 'wss://fleet.example/config/service-comms/devices/ws' };

  it('keeps the secret and address once unlocked, tells whoever listens, and answers 0x85 done', () => {
    const heard: unknown[] = [];
    const sim = new SimulatedDevice({
      codec,
      entry,
      config,
      serialNumber: 'HX5K-24-000124',
      onProvisioned: (p) => heard.push(p),
    });
    const send = () => sim.request(codec.buildFrame(OPCODE.provision, 255, provisioningPayload(given)));
    expect(errorCodeName(send())).toBe('locked');
    expect(sim.provisioning).toBeNull();
    sim.request(codec.buildFrame(OPCODE.checkPassword, 255, Uint8Array.from(codec.passwordCodes('0000'))));
    const answer = send();
    expect([answer[0], answer[1]]).toEqual([0x85, 0x00]);
    expect(sim.provisioning).toEqual(given);
    expect(heard).toEqual([given]);
  });

  it('refuses a payload that is not a secret and an address, keeping what it had', () => {
    const { sim, command, unlock } = device();
    unlock();
    for (const payload of [
      Uint8Array.from([0]),
      Uint8Array.from([3, 97, 98]),
      Uint8Array.from([2, 97, 98, 250, 97]),
      Uint8Array.from([1, 32, 1, 97]),
    ])
      expect(errorCodeName(command(OPCODE.provision, payload))).toBe('badPayload');
    expect(sim.provisioning).toBeNull();
  });

  it('reads back exactly what the app writes, and the app refuses what a frame cannot carry', () => {
    const frame = codec.buildFrame(OPCODE.provision, 255, provisioningPayload(given));
    expect(readProvisioning(frame)).toEqual(given);
    expect(() => provisioningPayload({ ...given, address: `wss://${'a'.repeat(200)}` })).toThrow(RangeError);
    expect(() => provisioningPayload({ ...given, secret: '' })).toThrow(RangeError);
    expect(() => provisioningPayload({ ...given, secret: 'with space' })).toThrow(RangeError);
  });
});
