import { describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import { type ConfigTemplate, MAX_TEMPLATE_FILE_BYTES } from '../../contracts/config-templates.ts';
import type { ClaimedDevice, ClaimRequest } from '../../contracts/installs.ts';
import { type TemplateChange, templatesMachine } from '../../machines/ble/templates-machine.ts';
import {
  ADD_DEVICE_MESSAGES,
  ADD_DEVICE_TITLES,
  type AddDeviceEvent,
  addDeviceMachine,
  serialFromText,
} from '../../machines/commissioning/add-device-machine.ts';
import { EXCLUDED_GROUPS } from '../../src/device-config/excluded-groups.ts';
import { buildForm } from '../../src/device-config/form-fields.ts';
import { readTemplateFile, readTemplateUpload } from '../../src/features/devices/configure/template-file.ts';
import { bundledProducts } from '../device-config/bundled-products.ts';

const target = (namePrefix: string) => ({
  service: 'fff0',
  characteristic: 'fff1',
  bufferSize: 255,
  namePrefix,
});
const MODELS = [
  { modelId: 'HX-5000', name: 'Helios HX-5000', prefix: 'HX5K', target: target('HX5K') },
  { modelId: 'BX-10', name: 'Basalt BX-10', prefix: 'BX10', target: target('BX10') },
];

/** The add-device machine with a camera that "sees" `text` and a service that answers `claim`. */
function addDevice(options: { seen?: string; claim?: (body: ClaimRequest) => Promise<ClaimedDevice> }) {
  return createActor(
    addDeviceMachine.provide({
      actors: {
        scanCode: fromCallback<AddDeviceEvent>(({ sendBack }) => {
          if (options.seen !== undefined) sendBack({ type: 'scan.found', text: options.seen });
        }),
        claim: fromPromise(({ input }) =>
          (options.claim ?? (() => Promise.reject(new Error('no'))))(input.body),
        ),
      },
    }),
    { input: { siteId: 5, models: MODELS, bluetooth: null } },
  ).start();
}

describe('adding a device', () => {
  it('reads over Bluetooth by itself, and says so where the browser has none', async () => {
    const actor = addDevice({});
    actor.send({ type: 'add.bluetooth' });
    await waitFor(actor, (s) => s.matches('entering'));
    expect(actor.getSnapshot().context.error).toEqual({
      title: ADD_DEVICE_TITLES.bluetooth,
      message: ADD_DEVICE_MESSAGES.noBluetooth,
    });
  });

  it('takes the serial and its model from a scanned code, inside longer text too', async () => {
    expect(serialFromText('SN: bx10-26-000123', MODELS)).toEqual({
      serial: 'BX10-26-000123',
      modelId: 'BX-10',
      claimCode: null,
    });
    const actor = addDevice({ seen: 'https://example.invalid/d?sn=HX5K-26-000007' });
    actor.send({ type: 'add.scan' });
    await waitFor(actor, (s) => s.matches('entering') && s.context.serial !== '');
    expect(actor.getSnapshot().context).toMatchObject({
      serial: 'HX5K-26-000007',
      modelId: 'HX-5000',
      error: null,
    });
  });

  it("takes the serial and claim code from a label's QR code", async () => {
    const actor = addDevice({ seen: 'SN:HX5K-26-000007;CC:k7m2-q9xd-4trw-8hnb' });
    actor.send({ type: 'add.edit', claimCode: 'typed before' });
    actor.send({ type: 'add.scan' });
    await waitFor(actor, (s) => s.matches('entering') && s.context.serial !== '');
    expect(actor.getSnapshot().context).toMatchObject({
      serial: 'HX5K-26-000007',
      claimCode: 'K7M2-Q9XD-4TRW-8HNB',
      modelId: 'HX-5000',
      error: null,
    });
  });

  it('says what a code held when it is not a serial number', async () => {
    const actor = addDevice({ seen: 'hello' });
    actor.send({ type: 'add.scan' });
    await waitFor(actor, (s) => s.context.error !== null);
    // Titled as a scan: nothing was added, the code was not read.
    expect(actor.getSnapshot().context.error).toEqual({
      title: ADD_DEVICE_TITLES.scan,
      message: ADD_DEVICE_MESSAGES.notASerial('hello'),
    });
  });

  it('keeps everything typed when the service refuses, and has the device when it is claimed', async () => {
    const sent: ClaimRequest[] = [];
    let answer: (body: ClaimRequest) => Promise<ClaimedDevice> = () =>
      Promise.reject(new Error('The server could not be reached. Check the connection and try again.'));
    const actor = addDevice({
      claim: (body) => {
        sent.push(body);
        return answer(body);
      },
    });
    actor.send({ type: 'add.edit', serial: 'hx5k-26-000008' });
    actor.send({ type: 'add.edit', claimCode: 'k7m2 q9xd 4trw 8hnb' });
    actor.send({ type: 'add.edit', name: 'Barn' });
    actor.send({ type: 'add.save' });
    await waitFor(actor, (s) => s.matches('entering') && s.context.error !== null);
    expect(actor.getSnapshot().context).toMatchObject({
      serial: 'hx5k-26-000008',
      claimCode: 'k7m2 q9xd 4trw 8hnb',
      modelId: 'HX-5000',
      name: 'Barn',
    });
    answer = async (body) => ({
      id: 9,
      modelId: 'HX-5000',
      serial: body.serial.toUpperCase(),
      name: body.name ?? '',
      siteId: 5,
      firmwareVersion: null,
      siteName: 'Farm',
      installedAt: new Date(0).toISOString(),
      claimedAt: new Date(0).toISOString(),
    });
    actor.send({ type: 'add.save' });
    await waitFor(actor, (s) => s.matches('installed'));
    expect(sent.at(-1)).toEqual({ serial: 'hx5k-26-000008', claimCode: 'K7M2Q9XD4TRW8HNB', name: 'Barn' });
    expect(actor.getSnapshot().context.installed?.claimedAt).toBe(new Date(0).toISOString());
  });

  it('refuses to claim with a code that cannot be a claim code, saying what one looks like', () => {
    const actor = addDevice({});
    actor.send({ type: 'add.edit', serial: 'HX5K-26-000009', claimCode: '1234' });
    actor.send({ type: 'add.save' });
    expect(actor.getSnapshot().value).toBe('entering');
    expect(actor.getSnapshot().context).toMatchObject({
      error: null,
      fieldErrors: { serial: null, claimCode: ADD_DEVICE_MESSAGES.badClaimCode },
    });
  });

  it('checks the serial as it is typed: only what more typing cannot mend, the rest when saved', () => {
    const actor = addDevice({});
    const serialError = () => actor.getSnapshot().context.fieldErrors.serial;
    const hx = MODELS.find((m) => m.modelId === 'HX-5000');
    for (const soFar of ['h', 'HX5', 'hx5k-', 'HX5K-2', 'HX5K-26-0000']) {
      actor.send({ type: 'add.edit', serial: soFar });
      expect(serialError(), soFar).toBeNull();
    }
    actor.send({ type: 'add.edit', serial: 'HX5K-26-00001x' });
    expect(serialError()).toBe(ADD_DEVICE_MESSAGES.serialForm(hx));
    // The field's description shows the form; its error names the model instead of repeating it.
    expect(serialError()).not.toContain('HX5K-24-000123');
    expect(serialError()).toContain('Helios HX-5000');
    actor.send({ type: 'add.edit', serial: 'ZZ9' });
    expect(serialError()).toBe(ADD_DEVICE_MESSAGES.noSuchPrefix('ZZ9'));
    actor.send({ type: 'add.edit', serial: 'HX5-26-000001' });
    expect(serialError()).toBe(ADD_DEVICE_MESSAGES.noSuchPrefix('HX5'));
    // Unfinished, but not wrong until saved; then both fields say what they lack.
    actor.send({ type: 'add.edit', serial: 'HX5K-26-0' });
    expect(serialError()).toBeNull();
    actor.send({ type: 'add.save' });
    expect(actor.getSnapshot().value).toBe('entering');
    expect(actor.getSnapshot().context.fieldErrors).toEqual({
      serial: ADD_DEVICE_MESSAGES.serialForm(hx),
      claimCode: ADD_DEVICE_MESSAGES.needsClaimCode,
    });
    // Typing the serial out mends its message; the code's stays until the code is typed.
    actor.send({ type: 'add.edit', serial: 'HX5K-26-000001' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({
      serial: null,
      claimCode: ADD_DEVICE_MESSAGES.needsClaimCode,
    });
    actor.send({ type: 'add.edit', claimCode: 'K7M2' });
    expect(actor.getSnapshot().context.fieldErrors.claimCode).toBeNull();
  });

  it("shows a refusal about the serial on the serial's field, without the field's name", async () => {
    const refusal = Object.assign(new Error('serial: HX5K-26-000008 is on another company’s site.'), {
      field: 'serial',
    });
    const actor = addDevice({ claim: () => Promise.reject(refusal) });
    actor.send({ type: 'add.edit', serial: 'HX5K-26-000008', claimCode: 'K7M2Q9XD4TRW8HNB' });
    actor.send({ type: 'add.save' });
    await waitFor(actor, (s) => s.matches('entering') && s.context.fieldErrors.serial !== null);
    expect(actor.getSnapshot().context).toMatchObject({
      error: null,
      fieldErrors: { serial: 'HX5K-26-000008 is on another company’s site.', claimCode: null },
    });
  });

  it('keeps what is typed while the camera looks for a code, and the camera keeps looking', async () => {
    let cameraOpen = false;
    let report: (event: AddDeviceEvent) => void = () => {};
    const actor = createActor(
      addDeviceMachine.provide({
        actors: {
          scanCode: fromCallback<AddDeviceEvent>(({ sendBack }) => {
            cameraOpen = true;
            report = sendBack;
            return () => {
              cameraOpen = false;
            };
          }),
        },
      }),
      { input: { siteId: 5, models: MODELS, bluetooth: null } },
    ).start();
    actor.send({ type: 'add.scan' });
    actor.send({ type: 'add.edit', serial: 'bx10-26-000321' });
    actor.send({ type: 'add.edit', name: 'Shed' });
    expect(actor.getSnapshot().value).toBe('scanning');
    expect(actor.getSnapshot().context).toMatchObject({
      serial: 'bx10-26-000321',
      modelId: 'BX-10',
      name: 'Shed',
    });
    expect(cameraOpen).toBe(true);
    // A code read afterwards is what the scan was for: it replaces the typed serial.
    report({ type: 'scan.found', text: 'HX5K-26-000322' });
    expect(actor.getSnapshot().context).toMatchObject({
      serial: 'HX5K-26-000322',
      modelId: 'HX-5000',
      name: 'Shed',
    });
    expect(cameraOpen).toBe(false);
  });

  it('refuses to save without a serial, saying so', () => {
    const actor = addDevice({});
    actor.send({ type: 'add.save' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({
      serial: ADD_DEVICE_MESSAGES.needsSerial,
      claimCode: ADD_DEVICE_MESSAGES.needsClaimCode,
    });
  });
});

describe('the templates of a product', () => {
  it('keeps the name dialog open with the reason when the service refuses, and lists again when it saves', async () => {
    let saved = false;
    const actor = createActor(
      templatesMachine.provide({
        actors: {
          loadTemplates: fromPromise(async (): Promise<ConfigTemplate[]> => []),
          changeTemplates: fromPromise(async (): Promise<unknown> => {
            if (!saved) throw new Error('A template of this product is already called "Standard"');
            return null;
          }),
        },
      }),
      { input: { modelId: 'HX-5000' } },
    ).start();
    await waitFor(actor, (s) => s.matches('shown'));
    actor.send({ type: 'templates.draft', settings: { maxChargeCurrent: 35 } });
    actor.send({
      type: 'templates.change',
      change: { kind: 'create', name: 'Standard', settings: { maxChargeCurrent: 35 } },
    });
    await waitFor(actor, (s) => s.matches('shown') && s.context.error !== null);
    expect(actor.getSnapshot().context.draft).toEqual({ maxChargeCurrent: 35 });
    saved = true;
    actor.send({
      type: 'templates.change',
      change: { kind: 'create', name: 'Standard', settings: { maxChargeCurrent: 35 } },
    });
    await waitFor(actor, (s) => s.matches('shown') && s.context.notice !== null);
    expect(actor.getSnapshot().context).toMatchObject({
      draft: null,
      error: null,
      notice: 'Saved the template “Standard”.',
    });
  });
});

describe('the templates while their list is being read', () => {
  /** The machine with every service call held until the test answers it. */
  function heldTemplates() {
    const loads: { resolve: (list: ConfigTemplate[]) => void; reject: (error: Error) => void }[] = [];
    const changes: { input: unknown; resolve: () => void }[] = [];
    const actor = createActor(
      templatesMachine.provide({
        actors: {
          loadTemplates: fromPromise<ConfigTemplate[], { modelId: string }>(
            () => new Promise((resolve, reject) => loads.push({ resolve, reject })),
          ),
          changeTemplates: fromPromise<unknown, { modelId: string; change: TemplateChange }>(
            ({ input }) =>
              new Promise<unknown>((resolve) => changes.push({ input, resolve: () => resolve(null) })),
          ),
        },
      }),
      { input: { modelId: 'HX-5000' } },
    ).start();
    return { actor, loads, changes };
  }
  const standard: ConfigTemplate = {
    id: 7,
    name: 'Standard',
    modelId: 'HX-5000',
    settings: { maxChargeCurrent: 35 },
    createdBy: 'installer@solarpros.example',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedBy: 'installer@solarpros.example',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };

  it('opens the save dialog when "Save as template" is pressed before the list arrives', () => {
    const { actor } = heldTemplates();
    actor.send({ type: 'templates.draft', settings: { maxChargeCurrent: 40 } });
    expect(actor.getSnapshot().context.draft).toEqual({ maxChargeCurrent: 40 });
    actor.send({ type: 'templates.cancel' });
    expect(actor.getSnapshot().context.draft).toBeNull();
  });

  it('makes a change pressed while the list is read again, and keeps a save dialog opened during a rename', async () => {
    const { actor, loads, changes } = heldTemplates();
    loads[0]?.resolve([standard]);
    await waitFor(actor, (s) => s.matches('shown'));
    actor.send({ type: 'templates.change', change: { kind: 'rename', id: 7, name: 'Standard 2026' } });
    actor.send({ type: 'templates.draft', settings: { maxChargeCurrent: 40 } });
    changes[0]?.resolve();
    await waitFor(actor, (s) => s.matches('loading') && loads.length === 2);
    expect(actor.getSnapshot().context.draft).toEqual({ maxChargeCurrent: 40 });
    actor.send({ type: 'templates.change', change: { kind: 'delete', id: 7 } });
    expect(actor.getSnapshot().value).toBe('changing');
    expect(changes[1]?.input).toEqual({ modelId: 'HX-5000', change: { kind: 'delete', id: 7 } });
  });

  it('shows the list without the old reason once it is read again after a failure', async () => {
    const { actor, loads } = heldTemplates();
    loads[0]?.reject(new Error('The server could not be reached.'));
    await waitFor(actor, (s) => s.matches('shown') && s.context.error !== null);
    actor.send({ type: 'templates.refresh' });
    loads[1]?.resolve([standard]);
    await waitFor(actor, (s) => s.matches('shown'));
    expect(actor.getSnapshot().context).toMatchObject({ templates: [standard], error: null });
  });

  it('saves and renames only under a name the service takes, trimmed: the rule that disables Save template and Rename', async () => {
    const { actor, loads, changes } = heldTemplates();
    loads[0]?.resolve([standard]);
    await waitFor(actor, (s) => s.matches('shown'));
    const create = (name: string) =>
      ({
        type: 'templates.change',
        change: { kind: 'create', name, settings: { maxChargeCurrent: 40 } },
      }) as const;
    actor.send({ type: 'templates.draft', settings: { maxChargeCurrent: 40 } });
    expect(actor.getSnapshot().context.name).toBe('');
    for (const blank of ['', '   ', 'x'.repeat(81)]) {
      expect(actor.getSnapshot().can(create(blank))).toBe(false);
      actor.send(create(blank));
      expect(actor.getSnapshot().value).toBe('shown');
    }
    actor.send({ type: 'templates.name', name: '  Night charge ' });
    expect(actor.getSnapshot().context.name).toBe('  Night charge ');
    expect(actor.getSnapshot().can(create('  Night charge '))).toBe(true);
    actor.send(create('  Night charge '));
    expect(changes[0]?.input).toEqual({
      modelId: 'HX-5000',
      change: { kind: 'create', name: 'Night charge', settings: { maxChargeCurrent: 40 } },
    });
    changes[0]?.resolve();
    await waitFor(actor, (s) => s.matches('loading') && loads.length === 2);
    loads[1]?.resolve([standard]);
    await waitFor(actor, (s) => s.matches('shown'));

    // Rename opens with the template's name; a blank one renames nothing, Cancel closes it.
    actor.send({ type: 'templates.rename', template: standard });
    expect(actor.getSnapshot().context).toMatchObject({ renaming: standard, name: 'Standard' });
    const rename = (name: string) =>
      ({ type: 'templates.change', change: { kind: 'rename', id: 7, name } }) as const;
    expect(actor.getSnapshot().can(rename(' '))).toBe(false);
    actor.send({ type: 'templates.cancel' });
    expect(actor.getSnapshot().context.renaming).toBeNull();
    actor.send({ type: 'templates.rename', template: standard });
    actor.send(rename('Standard 2026 '));
    // The dialog closes as the rename goes.
    expect(actor.getSnapshot().context.renaming).toBeNull();
    expect(changes[1]?.input).toEqual({
      modelId: 'HX-5000',
      change: { kind: 'rename', id: 7, name: 'Standard 2026' },
    });
  });
});

describe('importing a template file', () => {
  const hybrid = bundledProducts().find((p) => p.modelId === 'HX-5000');
  if (!hybrid) throw new Error('HX-5000 missing');
  const groups = buildForm(hybrid.config, { raw: {}, values: {} }, { excludedGroups: EXCLUDED_GROUPS });
  const name = (id: string) =>
    id === 'BX-10' ? 'Basalt BX-10 Home Battery' : 'Helios HX-5000 Hybrid Inverter';
  const file = (overrides: Record<string, unknown>) =>
    JSON.stringify({
      format: 'fleet-manager/config-template',
      version: 1,
      name: 'Standard',
      modelId: 'HX-5000',
      settings: { maxChargeCurrent: 35 },
      ...overrides,
    });

  it.each([
    ['not JSON', '{"format":', /^The file is not JSON/],
    ['another kind of JSON', '{"hello":1}', /^The file is not a settings template: format:/],
    [
      'a file for another product',
      file({ modelId: 'BX-10' }),
      /for the Basalt BX-10 Home Battery \(BX-10\), not the Helios/,
    ],
    [
      'a value edited past its limit',
      file({ settings: { maxChargeCurrent: 500 } }),
      /Max charge current must be at most 100/,
    ],
    [
      'a setting the product lacks',
      file({ settings: { turbo: 1 } }),
      /turbo: this product has no such setting/,
    ],
  ])('refuses %s with the reason', (_, text, reason) => {
    const check = readTemplateFile(text, 'HX-5000', name, groups);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.reason).toMatch(reason);
  });

  it('refuses a file above the size cap by its size, without reading it', async () => {
    const big = new Blob(['x'.repeat(MAX_TEMPLATE_FILE_BYTES + 1)]);
    const read = vi.spyOn(big, 'text');
    const check = await readTemplateUpload(big, 'HX-5000', name, groups);
    expect(check).toMatchObject({ ok: false, reason: expect.stringMatching(/at most 256 KiB/) });
    expect(read).not.toHaveBeenCalled();
    expect(await readTemplateUpload(new Blob([file({})]), 'HX-5000', name, groups)).toMatchObject({
      ok: true,
    });
  });

  it('takes a good file', () => {
    expect(readTemplateFile(file({}), 'HX-5000', name, groups)).toMatchObject({
      ok: true,
      file: { name: 'Standard' },
    });
  });
});
