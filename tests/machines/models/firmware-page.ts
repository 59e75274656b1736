import { expect } from 'vitest';
import { createActor, createMachine, waitFor } from 'xstate';
import type { FirmwareImageInfo, RolloutCreate, RolloutSummary } from '../../../contracts/firmware.ts';
import {
  type FirmwareLists,
  type FirmwareUpload,
  firmwarePageMachine,
} from '../../../machines/firmware/firmware-page-machine.ts';
import { ApiError } from '../../../src/api/api-error.ts';
import { controlledActor } from '../fakes.ts';
import { recordCoverage } from '../paths/coverage-recorder.ts';
import { defineModel, type ModelDriver } from '../paths/model-entry.ts';

/**
 * Abstract model of the Firmware page: the lists read again, an image uploaded (or refused with
 * the service's reason), a rollout started (then opened) or refused. A tree: each of the real
 * machine's transitions ends one path.
 */
const model = createMachine({
  id: 'firmwarePageModel',
  initial: 'shown',
  states: {
    shown: {
      on: {
        'page.refresh': 'refreshing',
        'upload.open': 'uploadEditing',
        'start.open': 'startEditing',
        'image.rollOut': 'startWithImage',
      },
    },
    refreshing: { on: { 'service.lists': 'refreshed', 'service.listFails': 'refreshFailed' } },
    refreshed: {},
    refreshFailed: {},
    uploadEditing: { on: { 'upload.send': 'uploadSending', 'dialog.close': 'uploadClosed' } },
    uploadClosed: {},
    uploadSending: { on: { 'service.uploads': 'uploaded', 'service.refusesImage': 'uploadRefused' } },
    uploaded: {},
    uploadRefused: {},
    startWithImage: {},
    startEditing: { on: { 'start.send': 'startSending', 'dialog.close': 'startClosed' } },
    startClosed: {},
    startSending: { on: { 'service.starts': 'started', 'service.refusesStart': 'startRefused' } },
    started: {},
    startRefused: {},
  },
});

const image = (id: number, version: string): FirmwareImageInfo => ({
  id,
  modelId: 'HX-5000',
  version,
  sha256: 'ab'.repeat(32),
  size: 49_372,
  channel: 'stable',
  uploadedAt: '2026-11-01T10:00:00.000Z',
});
const IMAGES = [image(2, '1.1.0'), image(1, '1.0.0')];
const NEW_IMAGE = image(3, '1.2.0');
const summary = (id: number): RolloutSummary => ({
  id,
  state: 'running',
  firmwareId: 2,
  modelId: 'HX-5000',
  version: '1.1.0',
  canary: 1,
  waveSize: 10,
  maxFailures: 1,
  createdAt: '2026-11-01T11:00:00.000Z',
  windowEndsAt: '2026-11-02T11:00:00.000Z',
  devices: 3,
  counts: { queued: 1, uploading: 1, testing: 0, confirmed: 1, reverted: 0, failed: 0, offline: 0 },
});
const ROLLOUTS = [summary(7)];
const UPLOAD: FirmwareUpload = {
  file: new Blob([new Uint8Array(8)]),
  fileName: 'hx-1.2.0.bin',
  model: 'HX-5000',
  channel: 'stable',
};
const REQUEST: RolloutCreate = {
  firmwareId: 2,
  serials: ['HX5K-24-000123'],
  canary: 1,
  waveSize: 10,
  maxFailures: 1,
};
const INVALID = new ApiError('The signature does not verify with the trusted key', {
  status: 400,
  code: 'firmware_invalid',
  path: '/fleet/firmware',
});

function driver(): ModelDriver {
  const lists = controlledActor<FirmwareLists, unknown>();
  const upload = controlledActor<FirmwareImageInfo, FirmwareUpload>();
  const start = controlledActor<{ id: number }, RolloutCreate>();
  const opened: number[] = [];
  const actor = createActor(
    firmwarePageMachine.provide({
      actors: { lists: lists.logic, upload: upload.logic, start: start.logic },
      actions: {
        openRollout: ({ context }) => {
          if (context.started !== null) opened.push(context.started);
        },
      },
    }),
    { input: { images: IMAGES, rollouts: ROLLOUTS }, inspect: recordCoverage },
  ).start();
  const snap = () => actor.getSnapshot();
  const sendAndWait = async (event: Parameters<typeof actor.send>[0], calls: { calls: unknown[] }) => {
    const before = calls.calls.length;
    actor.send(event);
    await waitFor(actor, () => calls.calls.length === before + 1);
  };
  const idle = () => {
    expect(snap().value).toBe('idle');
    expect(snap().can({ type: 'firmware.upload.open' })).toBe(true);
  };
  return {
    events: {
      'page.refresh': () => sendAndWait({ type: 'firmware.refresh' }, lists),
      'service.lists': () =>
        lists.last().resolve({ images: [NEW_IMAGE, ...IMAGES], rollouts: [summary(8), ...ROLLOUTS] }),
      'service.listFails': () => lists.last().reject(new Error('Failed to fetch')),
      'upload.open': () => actor.send({ type: 'firmware.upload.open' }),
      'upload.send': () => sendAndWait({ type: 'firmware.upload', upload: UPLOAD }, upload),
      'dialog.close': () => actor.send({ type: 'firmware.close' }),
      'service.uploads': () => upload.last().resolve(NEW_IMAGE),
      'service.refusesImage': () => upload.last().reject(INVALID),
      'start.open': () => actor.send({ type: 'firmware.start.open' }),
      'image.rollOut': () => actor.send({ type: 'firmware.start.open', firmwareId: 2 }),
      'start.send': () => sendAndWait({ type: 'firmware.start', request: REQUEST }, start),
      'service.starts': () => start.last().resolve({ id: 8 }),
      'service.refusesStart': () =>
        start.last().reject(
          new ApiError('HX5K-24-000123 is in another rollout under way: cancel it or let it finish first', {
            status: 409,
            code: 'rollout_device_busy',
            path: '/fleet/firmware-rollouts',
          }),
        ),
    },
    states: {
      shown: () => {
        idle();
        expect(snap().context).toMatchObject({ images: IMAGES, rollouts: ROLLOUTS, listError: null });
      },
      refreshing: () => {
        expect(snap().value).toBe('refreshing');
        expect(snap().can({ type: 'firmware.upload.open' })).toBe(false);
        expect(snap().can({ type: 'firmware.refresh' })).toBe(false);
      },
      refreshed: () => {
        idle();
        expect(snap().context.images).toHaveLength(3);
        expect(snap().context.rollouts.map((r) => r.id)).toEqual([8, 7]);
      },
      refreshFailed: () => {
        idle();
        expect(snap().context.listError).toBe('Failed to fetch');
        expect(snap().context.images).toEqual(IMAGES);
      },
      uploadEditing: () => {
        expect(snap().matches({ uploading: 'editing' })).toBe(true);
        expect(snap().context.uploadError).toBeNull();
        expect(snap().can({ type: 'firmware.close' })).toBe(true);
      },
      uploadClosed: () => {
        idle();
        expect(upload.calls).toHaveLength(0);
      },
      uploadSending: () => {
        expect(snap().matches({ uploading: 'sending' })).toBe(true);
        expect(upload.last().input).toEqual(UPLOAD);
        // The dialog stays while the image is sent.
        expect(snap().can({ type: 'firmware.close' })).toBe(false);
      },
      uploaded: () => {
        idle();
        expect(snap().context.uploaded).toEqual(NEW_IMAGE);
        expect(snap().context.images.map((i) => i.id)).toEqual([3, 2, 1]);
      },
      uploadRefused: () => {
        expect(snap().matches({ uploading: 'editing' })).toBe(true);
        expect(snap().context.uploadError).toEqual({
          message: 'The signature does not verify with the trusted key',
          code: 'firmware_invalid',
        });
        expect(snap().context.images).toEqual(IMAGES);
      },
      startEditing: () => {
        expect(snap().matches({ starting: 'editing' })).toBe(true);
        expect(snap().context.startWith).toBeNull();
      },
      startWithImage: () => {
        expect(snap().matches({ starting: 'editing' })).toBe(true);
        expect(snap().context.startWith).toBe(2);
      },
      startClosed: () => {
        idle();
        expect(start.calls).toHaveLength(0);
      },
      startSending: () => {
        expect(snap().matches({ starting: 'sending' })).toBe(true);
        expect(start.last().input).toEqual(REQUEST);
        expect(snap().can({ type: 'firmware.close' })).toBe(false);
      },
      started: () => {
        idle();
        expect(lists.calls).toHaveLength(0);
        expect(snap().context.started).toBe(8);
        expect(opened).toEqual([8]);
      },
      startRefused: () => {
        expect(snap().matches({ starting: 'editing' })).toBe(true);
        expect(snap().context.startError?.code).toBe('rollout_device_busy');
        expect(opened).toEqual([]);
      },
    },
  };
}

export default defineModel({
  name: 'firmware-page',
  title: 'Firmware page',
  source: 'machines/firmware/firmware-page-machine.ts',
  about:
    "The Firmware page's images and rollouts (read by its loader) are read again on Refresh; an image is uploaded in a dialog and a refusal keeps the dialog with the service's reason; a rollout is started in another dialog, then opened. The forms' own checks are react-hook-form's (tests/app/firmware-forms.test.ts).",
  machine: firmwarePageMachine,
  model,
  driver,
  events: {
    'page.refresh': 'The person presses "Refresh".',
    'service.lists': 'The service answers the images and rollouts, each with one more.',
    'service.listFails': 'The lists cannot be read (the network is down).',
    'upload.open': 'The person presses "Upload image".',
    'upload.send': 'The person picks a file, the model and the channel, and presses "Upload".',
    'dialog.close': 'The person closes the dialog without sending.',
    'service.uploads': 'The service stores the image and answers it.',
    'service.refusesImage': 'The service refuses the image: firmware_invalid, the signature does not verify.',
    'start.open': 'The person presses "Start rollout".',
    'image.rollOut': 'The person presses "Roll out" on an image.',
    'start.send':
      'The person fills in the image, a serial, canary, wave size and limit, and presses "Start rollout".',
    'service.starts': 'The service starts the rollout and answers its id.',
    'service.refusesStart': 'The service refuses: a device is in another rollout under way.',
  },
  states: {
    shown: 'The images by model and the rollouts, as the loader read them.',
    refreshing: 'The lists are being read again; the dialogs cannot be opened meanwhile.',
    refreshed: 'The lists as read again: the new image and rollout are shown.',
    refreshFailed: 'The lists as they were, with why they could not be read again.',
    uploadEditing: 'The upload dialog, with nothing refused.',
    uploadClosed: 'The dialog was closed; nothing was sent.',
    uploadSending: 'The image is being sent; the dialog cannot be closed.',
    uploaded: 'The image is listed first and said to be ready to roll out.',
    uploadRefused: "The dialog again, saying the image was refused and the service's reason.",
    startEditing: 'The start dialog, no image chosen yet.',
    startWithImage: 'The start dialog with the image whose "Roll out" was pressed.',
    startClosed: 'The dialog was closed; nothing was sent.',
    startSending: 'The rollout is being started; the dialog cannot be closed.',
    started: 'The rollout is opened; the lists are not read again behind it (a visit back reads them).',
    startRefused: "The dialog again with the service's words.",
  },
});
