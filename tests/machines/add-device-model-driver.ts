import { expect } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { claimedElsewhereMessage, normalizeClaimCode } from '../../contracts/claims.ts';
import { devicePageSchema } from '../../contracts/devices.ts';
import type { ClaimedDevice, ClaimRequest } from '../../contracts/installs.ts';
import {
  ADD_DEVICE_MESSAGES,
  ADD_DEVICE_TITLES,
  type AddDeviceEvent,
  type AddDeviceFieldErrors,
  type AddDeviceProblem,
  addDeviceMachine,
  type ModelChoice,
  modelOfSerial,
  type ReadSerial,
  readSerialOverBluetooth,
} from '../../machines/commissioning/add-device-machine.ts';
import { claimDevice } from '../../src/api/commissioning-api.ts';
import { targetOf } from '../../src/ble/device-commands.ts';
import type { BleTransport } from '../../src/ble/transport.ts';
import { WebBluetoothTransport } from '../../src/ble/web-bluetooth-transport.ts';
import type {
  BluetoothDeviceLike,
  BluetoothLike,
  BluetoothRequestOptions,
} from '../../src/ble/web-bluetooth-types.ts';
import { loadCodec } from '../../src/codec/load-node.ts';
import { SimulatedDevice } from '../../src/device-sim/simulated-device.ts';
import { FakeBluetooth } from '../ble/fake-web-bluetooth.ts';
import { bundledProducts } from '../device-config/bundled-products.ts';
import { IDS } from '../server/harness.ts';
import { commissioningService, LABEL_CODE, letGo } from './commissioning-service.ts';
import { controlledActor } from './fakes.ts';
import { recordCoverage } from './paths/coverage-recorder.ts';
import type { ModelDriver } from './paths/model-entry.ts';

const codec = await loadCodec();
const products = bundledProducts();
/** Every model of both catalogue lists, as the add-device dialog offers them. */
const MODELS: ModelChoice[] = products.map((p) => ({
  modelId: p.modelId,
  name: p.entry.name,
  prefix: p.entry.serialPrefix,
  target: targetOf(p.entry),
}));
const SITE = IDS.siteOfA;
const NAME = 'Garage inverter';
/** The camera's picture, as the scanner hands it over for the preview. */
const STREAM = { id: 'rear-camera' } as unknown as MediaStream;
/** A code that holds no serial: a label's Wi-Fi login. */
const WIFI_CODE = 'WIFI:S:SolarPros;T:WPA;P:sunshine;;';
/** What the scanner says when the browser refuses the camera. */
const CAMERA_REFUSED = 'The camera may not be used: allow it in the browser, or type the serial number.';

/**
 * `navigator.bluetooth` whose chooser waits for the person: they pick a device in range (the real
 * device simulator behind the Web Bluetooth stand-in) or close the chooser, as Chromium answers it.
 */
class PersonsChooser implements BluetoothLike {
  readonly requests: BluetoothRequestOptions[] = [];
  private answer: ((device: BluetoothDeviceLike | null) => void) | null = null;
  private shown: () => void = () => {};
  /** Resolves when the chooser is on screen. */
  opened = new Promise<void>((resolve) => {
    this.shown = resolve;
  });

  async getAvailability() {
    return true;
  }

  requestDevice(options: BluetoothRequestOptions): Promise<BluetoothDeviceLike> {
    this.requests.push(options);
    this.shown();
    return new Promise((resolve, reject) => {
      this.answer = (device) =>
        device
          ? resolve(device)
          : reject(new DOMException('User cancelled the requestDevice() chooser.', 'NotFoundError'));
    });
  }

  /** The person picks the device whose advertised name is `serial`, of the model the chooser asked for. */
  pick(serial: string, modelId: string) {
    const product = products.find((p) => p.modelId === modelId);
    if (!product) throw new Error(`no product ${modelId}`);
    const sim = new SimulatedDevice({
      codec,
      entry: product.entry,
      config: product.config,
      serialNumber: serial,
    });
    const target = targetOf(product.entry);
    this.answer?.(new FakeBluetooth(sim, target.service, target.characteristic).device);
  }

  close() {
    this.answer?.(null);
  }
}

/** What the form shows, as the person filled it in. */
interface Form {
  serial: string;
  claimCode: string;
  modelId: string;
  name: string;
}

/**
 * Events and state checks that run one path of the add-device model against the real machine: the
 * save goes, when the path lets it, through the app's claim call to the configuration service in
 * process (site 5 of installer A), for units registered there as a manufacturing list registers them; "Read over Bluetooth" is the app's own reading through the real
 * Web Bluetooth transport, its chooser answered as a person would; the camera's scanner (which
 * needs a browser's camera and video) is answered by hand with what it reports.
 */
export function addDeviceModelDriver(): ModelDriver {
  const claim = controlledActor<ClaimedDevice, { siteId: number; body: ClaimRequest }>();
  const refresh = controlledActor<void, unknown>();
  const cameras: { report: (event: AddDeviceEvent) => void; open: boolean }[] = [];
  const chooser = new PersonsChooser();
  const reads: Promise<ReadSerial>[] = [];
  const actor = createActor(
    addDeviceMachine.provide({
      actors: {
        scanCode: fromCallback<AddDeviceEvent>(({ sendBack }) => {
          const camera = { report: sendBack, open: true };
          cameras.push(camera);
          return () => {
            camera.open = false;
          };
        }),
        claim: claim.logic,
        refresh: refresh.logic,
        // The machine's own reading, through the real Web Bluetooth transport; kept to wait for its end.
        readOverBluetooth: fromPromise<
          ReadSerial,
          { model: ModelChoice | undefined; bluetooth: BleTransport | null }
        >(({ input }) => {
          const read = readSerialOverBluetooth(input);
          reads.push(read);
          return read;
        }),
      },
    }),
    {
      input: { siteId: SITE, models: MODELS, bluetooth: new WebBluetoothTransport(chooser) },
      inspect: recordCoverage,
    },
  ).start();
  const snap = () => actor.getSnapshot();
  const camera = () => {
    const last = cameras.at(-1);
    if (!last) throw new Error('the camera was never opened');
    return last;
  };
  /** The reading over Bluetooth has ended, and the machine has taken (or ignored) its answer. */
  const readEnds = async () => {
    await reads.at(-1)?.catch(() => undefined);
  };
  const form: Form = { serial: '', claimCode: '', modelId: MODELS[0]?.modelId ?? '', name: '' };
  const fresh = async (prefix: string) => (await (await commissioningService()).freshLabel(prefix)).serial;
  const type = (serial: string) => {
    form.serial = serial;
    form.modelId = modelOfSerial(serial, MODELS) ?? form.modelId;
    actor.send({ type: 'add.edit', serial });
  };
  const typeCode = (claimCode: string) => {
    form.claimCode = claimCode;
    actor.send({ type: 'add.edit', claimCode });
  };
  let scannedText = '';
  let chosenSerial = '';

  /** The fields as the person filled them in, with what the dialog says of them, and nothing else. */
  const entering = (error: AddDeviceProblem | null, fields: Partial<AddDeviceFieldErrors> = {}) => {
    expect(snap().value).toBe('entering');
    expect(snap().context).toMatchObject({
      ...form,
      error,
      fieldErrors: { serial: null, claimCode: null, ...fields },
      stream: null,
      installed: null,
    });
    // The camera is off whenever the machine is not scanning.
    expect(cameras.every((c) => !c.open)).toBe(true);
  };
  const saving = () => {
    expect(snap().value).toBe('saving');
    const body: ClaimRequest = { serial: form.serial.trim(), claimCode: normalizeClaimCode(form.claimCode) };
    if (form.name) body.name = form.name;
    expect(claim.last().input).toEqual({ siteId: SITE, body });
    expect(claim.last().settled).toBe(false);
  };
  const scanning = (stream: MediaStream | null) => {
    expect(snap().value).toBe('scanning');
    expect(snap().context).toMatchObject({ ...form, stream, error: null });
    expect(camera().open).toBe(true);
    expect(cameras).toHaveLength(1);
  };

  /** The new device, claimed, in the context, and on the site at the service; no secret changed hands. */
  const theDeviceIsOnTheSite = async () => {
    const serial = form.serial.trim().toUpperCase();
    const name = form.name || (MODELS.find((m) => m.modelId === form.modelId)?.name ?? '');
    const installed = snap().context.installed;
    expect(installed).toMatchObject({ serial, modelId: form.modelId, name, siteId: SITE });
    expect(Date.parse(installed?.claimedAt ?? '')).not.toBeNaN();
    expect(installed).not.toHaveProperty('secret');
    // And the service has the device on the site.
    const { api } = await commissioningService();
    const page = devicePageSchema.parse(await api(`/install/device/${form.modelId}`, { query: { serial } }));
    expect(page.items[0]).toMatchObject({ id: installed?.id, siteId: SITE, name });
  };

  return {
    events: {
      'serial.typed': async () => {
        type(` ${(await fresh('HX5K')).toLowerCase()} `);
        typeCode(LABEL_CODE.toLowerCase().replace(/-/g, ' '));
      },
      'serial.typedTaken': async () => {
        type((await commissioningService()).claimedByOtherCompany);
        typeCode(LABEL_CODE);
      },
      'serial.typedBadCode': async () => {
        type(await fresh('HX5K'));
        typeCode('1234');
      },
      'claimCode.typed': () => typeCode(LABEL_CODE),
      'name.typed': () => {
        form.name = NAME;
        actor.send({ type: 'add.edit', name: NAME });
      },
      'model.chosen': () => {
        form.modelId = 'BX-10';
        actor.send({ type: 'add.edit', modelId: 'BX-10' });
      },
      'save.pressed': () => actor.send({ type: 'add.save' }),
      'service.answers': async () => {
        const { api } = await commissioningService();
        await letGo(claim.last(), ({ siteId, body }) => claimDevice(api, siteId, body));
      },
      'page.reloaded': () => refresh.last().resolve(),
      'page.reloadFails': () => refresh.last().reject(new Error('Failed to fetch')),
      'scan.pressed': () => actor.send({ type: 'add.scan' }),
      'camera.shows': () => camera().report({ type: 'scan.stream', stream: STREAM }),
      'code.read': async () => {
        const serial = await fresh('HX5K');
        scannedText = `sn:${serial.toLowerCase()};cc:${LABEL_CODE.toLowerCase()}`;
        form.serial = serial;
        form.claimCode = LABEL_CODE;
        form.modelId = 'HX-5000';
        camera().report({ type: 'scan.found', text: scannedText });
      },
      'code.readNotSerial': () => {
        scannedText = WIFI_CODE;
        camera().report({ type: 'scan.found', text: WIFI_CODE });
      },
      'camera.refused': () => camera().report({ type: 'scan.failed', message: CAMERA_REFUSED }),
      'scan.stopped': () => actor.send({ type: 'add.cancel' }),
      'bluetooth.pressed': async () => {
        actor.send({ type: 'add.bluetooth' });
        await chooser.opened;
      },
      'device.chosen': async () => {
        const prefix = MODELS.find((m) => m.modelId === form.modelId)?.prefix ?? '';
        chosenSerial = await fresh(prefix);
        form.serial = chosenSerial;
        chooser.pick(chosenSerial, form.modelId);
        await readEnds();
      },
      'chooser.closed': async () => {
        chooser.close();
        await readEnds();
      },
      'reading.cancelled': () => actor.send({ type: 'add.cancel' }),
      // The chooser cannot be closed from the page: the person may still pick a device in it.
      'device.chosenLate': async () => {
        chooser.pick(await fresh('HX5K'), form.modelId);
        await readEnds();
      },
    },
    states: {
      empty: () => {
        expect(form).toEqual({ serial: '', claimCode: '', modelId: 'HX-5000', name: '' });
        entering(null);
      },
      needsSerial: () =>
        entering(null, {
          serial: ADD_DEVICE_MESSAGES.needsSerial,
          claimCode: ADD_DEVICE_MESSAGES.needsClaimCode,
        }),
      typed: () => entering(null),
      named: () => entering(null),
      typedTaken: () => entering(null),
      typedBadCode: () => entering(null),
      badClaimCode: () => entering(null, { claimCode: ADD_DEVICE_MESSAGES.badClaimCode }),
      modelChosen: () => entering(null),
      saving,
      savingTaken: saving,
      refused: async () =>
        entering(null, {
          serial: claimedElsewhereMessage((await commissioningService()).claimedByOtherCompany),
        }),
      showingClaimed: async () => {
        expect(snap().value).toBe('refreshing');
        expect(refresh.calls).toHaveLength(1);
        expect(refresh.last().settled).toBe(false);
        await theDeviceIsOnTheSite();
      },
      installed: async () => {
        expect(snap().value).toBe('installed');
        expect(snap().status).toBe('done');
        expect(refresh.calls).toHaveLength(1);
        await theDeviceIsOnTheSite();
      },
      scanning: () => scanning(null),
      previewing: () => scanning(STREAM),
      typedWhileScanning: () => scanning(null),
      scanned: () => entering(null),
      notASerial: () =>
        entering({ title: ADD_DEVICE_TITLES.scan, message: ADD_DEVICE_MESSAGES.notASerial(scannedText) }),
      cameraRefused: () => entering({ title: ADD_DEVICE_TITLES.scan, message: CAMERA_REFUSED }),
      scanStopped: () => entering(null),
      choosing: () => {
        expect(snap().value).toBe('reading');
        expect(snap().context).toMatchObject({ ...form, error: null });
        // The chooser lists only devices of the chosen model, by its serial prefix.
        const model = MODELS.find((m) => m.modelId === form.modelId);
        expect(chooser.requests).toHaveLength(1);
        expect(chooser.requests[0]?.filters).toEqual([
          { services: [expect.any(String)], namePrefix: model?.prefix },
        ]);
      },
      readOver: () => {
        expect(form.serial).toBe(chosenSerial);
        entering(null);
      },
      readOverWithCode: () => {
        expect(form.serial).toBe(chosenSerial);
        entering(null);
      },
      noDeviceChosen: () =>
        entering({ title: ADD_DEVICE_TITLES.bluetooth, message: 'No device was chosen.' }),
      readingCancelled: () => entering(null),
      lateIgnored: () => entering(null),
    },
  };
}
