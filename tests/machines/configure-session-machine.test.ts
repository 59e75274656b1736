import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import {
  deviceUnlocked,
  formEditable,
  templateFormOf,
  templateOnDevice,
} from '../../machines/ble/configure-session-machine.ts';
import { GET_CONFIG_INTERVAL_MS } from '../../machines/ble/connection-machine.ts';
import { WRITE_MESSAGES } from '../../machines/ble/write-machine.ts';
import { decodeConfiguration } from '../../src/device-config/decode-values.ts';
import { encodeConfiguration } from '../../src/device-config/encode-form.ts';
import { EXCLUDED_GROUPS } from '../../src/device-config/excluded-groups.ts';
import { buildForm } from '../../src/device-config/form-fields.ts';
import { OPCODE } from '../../src/device-protocol/protocol.ts';
import { product } from './ble-harness.ts';
import { DEMO_PASSWORD, PASSWORD, type SessionHarness, sessionHarness } from './configure-session-harness.ts';

let running: SessionHarness | undefined;
afterEach(() => {
  running?.session.stop();
  running = undefined;
});

async function connected(via: 'bluetooth' | 'demo' = 'bluetooth', options = {}) {
  const h = await sessionHarness(options);
  running = h;
  h.session.send({ type: 'session.connect', via });
  await waitFor(h.session, (s) => s.matches({ link: 'open' }));
  return h;
}

async function unlocked(via: 'bluetooth' | 'demo' = 'bluetooth', options = {}) {
  const h = await connected(via, options);
  h.session.send({ type: 'password.submit', password: via === 'demo' ? DEMO_PASSWORD : PASSWORD });
  await waitFor(h.children().password, (s) => s.matches('unlocked'));
  return h;
}

const form = (h: SessionHarness) => h.session.getSnapshot().context;

/** A setting changed on the device itself (its own display), behind the session's back. */
function changeOnDevice(h: SessionHarness, values: Record<string, number>) {
  const device = h.real.device;
  const base = device.request(h.codec.buildFrame(OPCODE.readConfiguration, 255));
  const decoded = decodeConfiguration(h.codec, product.config, base);
  const groups = buildForm(product.config, decoded, { excludedGroups: EXCLUDED_GROUPS });
  const result = encodeConfiguration(h.codec, product.config, groups, values, base, {
    opcode: OPCODE.writeConfiguration,
  });
  if (!result.ok) throw new Error(result.errors[0]?.message);
  expect(device.request(result.frame)[0]).toBe(OPCODE.writeConfiguration | 0x80);
}

describe('the Configure session machine', () => {
  it('hands a ready link to the password machine and fills the form with what the device holds', async () => {
    const h = await connected();
    const password = h.children().password.getSnapshot();
    expect(password.matches('locked')).toBe(true);
    expect(password.context.link).toBe(h.link());
    expect(h.session.getSnapshot().matches({ form: 'following' })).toBe(true);
    expect(form(h).values.maxChargeCurrent).toBe(80);
    // The clock field is the phone's time (the specification's auto-input), the device's clock stays known.
    expect(form(h).values.deviceClock).toBe('2026-11-25T02:14');
    expect(
      form(h)
        .groups.flatMap((g) => g.fields)
        .find((f) => f.name === 'deviceClock')?.deviceValue,
    ).toBe('2025-01-01T00:00');
  });

  it('follows the device on each read until the person edits a field, then keeps the edit', async () => {
    const h = await unlocked();
    changeOnDevice(h, { maxChargeCurrent: 65 });
    h.clock.increment(GET_CONFIG_INTERVAL_MS);
    await waitFor(h.session, (s) => s.context.values.maxChargeCurrent === 65);

    h.session.send({ type: 'form.change', name: 'batteryFloatVoltage', value: '55.5' });
    expect(h.session.getSnapshot().matches({ form: 'edited' })).toBe(true);
    changeOnDevice(h, { maxChargeCurrent: 70 });
    const reads = h.link().reads;
    h.clock.increment(GET_CONFIG_INTERVAL_MS);
    await waitFor(
      h.session,
      () => h.link().reads > reads && form(h).device?.decoded.values.maxChargeCurrent === 70,
    );
    // The form keeps what it showed; the field now knows the device holds another value.
    expect(form(h).values).toMatchObject({ batteryFloatVoltage: '55.5', maxChargeCurrent: 65 });
    const field = form(h)
      .groups.flatMap((g) => g.fields)
      .find((f) => f.name === 'maxChargeCurrent');
    expect(field?.deviceValue).toBe(70);

    h.session.send({ type: 'form.revert' });
    expect(h.session.getSnapshot().matches({ form: 'following' })).toBe(true);
    expect(form(h).values).toMatchObject({ batteryFloatVoltage: 54, maxChargeCurrent: 70 });
  });

  it('writes over Bluetooth, verifies, records the change for the device history and follows the device again', async () => {
    const h = await unlocked();
    h.session.send({ type: 'form.change', name: 'workMode', value: 2 });
    h.session.send({ type: 'form.change', name: 'chargeStart', value: 12_600 });
    h.session.send({ type: 'form.write' });
    expect(h.session.getSnapshot().matches({ form: 'writing' })).toBe(true);
    await waitFor(h.session, (s) => s.matches({ form: 'following' }));
    expect(h.stored(h.real.device)).toMatchObject({ workMode: 2, chargeStart: 12_600 });
    expect(h.children().connection.getSnapshot().context.config?.decoded.values.workMode).toBe(2);
    await waitFor(h.history(), () => h.recorded.length === 1);
    expect(h.recorded[0]).toMatchObject({ serialNumber: 'HX5K-24-000123', transport: 'web-bluetooth' });
    expect(h.recorded[0]?.changes.map((c) => `${c.label}: ${c.oldValue} → ${c.newValue}`)).toEqual([
      'Device date and time: Jan 1, 2025, 12:00 am → Nov 25, 2026, 2:14 am',
      'Work mode: Self-use → Backup',
      'Grid charge starts at: 2:00 am → 3:30 am',
    ]);
    expect(form(h).values.workMode).toBe(2);
  });

  it('writes to the demo device without a word in the real device history', async () => {
    const h = await unlocked('demo');
    h.session.send({ type: 'form.change', name: 'maxChargeCurrent', value: '60' });
    h.session.send({ type: 'form.change', name: 'password', value: 'demo!' });
    h.session.send({ type: 'form.write' });
    await waitFor(h.session, (s) => s.matches({ form: 'following' }));
    expect(h.children().write.getSnapshot().matches('done')).toBe(true);
    expect(h.stored(h.demo.device).maxChargeCurrent).toBe(60);
    expect(h.stored(h.real.device).maxChargeCurrent).toBe(80);
    // The history is read again after a recorded write; nothing was recorded, nothing was read.
    expect(h.recorded).toEqual([]);
    expect(h.children().history?.getSnapshot().matches('shown')).toBe(true);
    // Where the demo is offered, its password is said as it now is.
    expect(form(h).demoPassword).toBe('demo!');
  });

  it('refuses a value out of range at the form and sends nothing', async () => {
    const h = await unlocked();
    h.session.send({ type: 'form.change', name: 'maxChargeCurrent', value: '120' });
    expect(form(h).errors).toEqual({ maxChargeCurrent: 'Max charge current must be at most 100 A' });
    h.session.send({ type: 'form.write' });
    expect(h.session.getSnapshot().matches({ form: 'edited' })).toBe(true);
    expect(h.children().write.getSnapshot().matches('idle')).toBe(true);
  });

  it('keeps what was typed when the link drops mid-write, and gives the password again once it is back', async () => {
    const h = await unlocked();
    h.session.send({ type: 'form.change', name: 'maxChargeCurrent', value: '42' });
    h.link().faults.push('drop-before-write');
    h.session.send({ type: 'form.write' });
    await waitFor(h.session, (s) => s.matches({ form: 'edited' }) && s.matches({ link: 'lost' }));
    expect(h.children().write.getSnapshot().context.failure).toEqual({
      message: WRITE_MESSAGES.lost,
      deviceKept: 'unknown',
    });
    expect(form(h).values.maxChargeCurrent).toBe('42');
    h.clock.increment(1000);
    await waitFor(h.session, (s) => s.matches({ link: 'open' }));
    await waitFor(h.children().password, (s) => s.matches('unlocked'));
    expect(h.chooserShown()).toBe(1);
    expect(form(h).values.maxChargeCurrent).toBe('42');
  });

  it('forgets the password when the person disconnects, and closes the link when the session stops', async () => {
    const h = await unlocked();
    h.session.send({ type: 'session.disconnect' });
    await waitFor(h.session, (s) => s.matches({ link: 'closed' }));
    expect(h.children().password.getSnapshot().context.accepted).toBeNull();
    h.session.send({ type: 'session.connect', via: 'bluetooth' });
    await waitFor(h.session, (s) => s.matches({ link: 'open' }));
    await waitFor(h.children().password, (s) => s.matches('locked'));
    expect(h.link().connected).toBe(true);
    h.session.stop();
    expect(h.link().connected).toBe(false);
  });

  it('runs a confirmed command over the session’s link', async () => {
    const h = await unlocked();
    const restart = h.children().product.entry.commands.find((c) => c.name === 'Restart inverter');
    if (!restart) throw new Error('no restart command');
    h.session.send({ type: 'command.ask', command: restart });
    h.session.send({ type: 'command.confirm' });
    await waitFor(h.children().command, (s) => s.matches('done'));
    expect(h.real.device.commandLog.map((c) => c.name)).toContain('Restart inverter');
  });

  it('takes no command before the device is unlocked: the rule that disables the buttons', async () => {
    const h = await connected();
    const restart = h.children().product.entry.commands.find((c) => c.name === 'Restart inverter');
    if (!restart) throw new Error('no restart command');
    const ask = { type: 'command.ask' as const, command: restart };
    expect(h.session.getSnapshot().can(ask)).toBe(false);
    h.session.send(ask);
    expect(h.children().command.getSnapshot().matches('idle')).toBe(true);
    h.session.send({ type: 'password.submit', password: PASSWORD });
    await waitFor(h.children().password, (s) => s.matches('unlocked'));
    expect(h.session.getSnapshot().can(ask)).toBe(true);
  });

  it('takes a template only when it can be written and changes something: the rule that disables Write template', async () => {
    const h = await unlocked();
    const write = (settings: Record<string, number>) =>
      ({ type: 'template.write', name: 'Barn standard', settings }) as const;
    // The device holds 80 A: a template of 80 A changes nothing, one of 120 A is out of range,
    // one naming a setting the product lacks cannot be written.
    expect(form(h).device?.decoded.values.maxChargeCurrent).toBe(80);
    expect(h.session.getSnapshot().can(write({ maxChargeCurrent: 80 }))).toBe(false);
    expect(h.session.getSnapshot().can(write({ maxChargeCurrent: 120 }))).toBe(false);
    expect(h.session.getSnapshot().can(write({ maxChargeCurrent: 35, turbo: 1 }))).toBe(false);
    h.session.send(write({ maxChargeCurrent: 120 }));
    expect(h.session.getSnapshot().matches({ form: 'following' })).toBe(true);
    expect(h.session.getSnapshot().can(write({ maxChargeCurrent: 35 }))).toBe(true);
  });

  it('shows of a template what the Write guard decides on: its problems, its changes, and the password it waits for', async () => {
    const h = await connected();
    const snap = () => h.session.getSnapshot();
    const write = {
      type: 'template.write',
      name: 'Barn standard',
      settings: { maxChargeCurrent: 35 },
    } as const;
    // Locked: the template would change the device, so the view asks for the password, and Write waits.
    expect(templateOnDevice(snap(), write.settings)).toEqual({
      problems: [],
      changes: [
        { field: 'maxChargeCurrent', label: 'Max charge current', current: '80 A', template: '35 A' },
      ],
      needsPassword: true,
    });
    expect(snap().can(write)).toBe(false);
    // Out of range, or changing nothing: no password asked, nothing to write either way.
    expect(templateOnDevice(snap(), { maxChargeCurrent: 120 })).toMatchObject({
      problems: [{ field: 'maxChargeCurrent', message: 'Max charge current must be at most 100 A' }],
      needsPassword: false,
    });
    expect(templateOnDevice(snap(), { maxChargeCurrent: 80 })).toMatchObject({
      changes: [],
      needsPassword: false,
    });
    h.session.send({ type: 'password.submit', password: PASSWORD });
    await waitFor(h.children().password, (s) => s.matches('unlocked'));
    expect(templateOnDevice(snap(), write.settings)?.needsPassword).toBe(false);
    expect(snap().can(write)).toBe(true);
  });

  it("checks a template file against the device's form once read, and the product's own before", async () => {
    const h = await sessionHarness();
    running = h;
    // No device yet: the product's form, every setting a template may hold.
    const before = templateFormOf(h.session.getSnapshot()).flatMap((g) => g.fields.map((f) => f.name));
    expect(before).toContain('maxChargeCurrent');
    expect(h.session.getSnapshot().context.groups).toEqual([]);
    h.session.send({ type: 'session.connect', via: 'bluetooth' });
    await waitFor(h.session, (s) => s.matches({ link: 'open' }));
    expect(templateFormOf(h.session.getSnapshot())).toBe(h.session.getSnapshot().context.groups);
    expect(templateOnDevice(h.session.getSnapshot(), {})).toEqual({
      problems: [],
      changes: [],
      needsPassword: false,
    });
  });

  it('unlocks the form when the password machine opens it, and locks it again when the link closes', async () => {
    const h = await connected();
    expect(deviceUnlocked(h.session.getSnapshot())).toBe(false);
    expect(formEditable(h.session.getSnapshot())).toBe(false);
    h.session.send({ type: 'password.submit', password: PASSWORD });
    await waitFor(h.children().password, (s) => s.matches('unlocked'));
    expect(deviceUnlocked(h.session.getSnapshot())).toBe(true);
    expect(formEditable(h.session.getSnapshot())).toBe(true);
    h.session.send({ type: 'session.disconnect' });
    await waitFor(h.session, (s) => s.matches({ link: 'closed' }));
    expect(deviceUnlocked(h.session.getSnapshot())).toBe(false);
  });
});
