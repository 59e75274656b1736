import { expect } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { createBleUpdateActors } from '../../machines/firmware/ble-update-actors.ts';
import { bleUpdateMachine, UPDATE_MESSAGES } from '../../machines/firmware/ble-update-machine.ts';
import { MODEL, SERIAL, signedImage, type UpdateRig, updateRig } from './firmware-update-harness.ts';
import { recordCoverage } from './paths/coverage-recorder.ts';
import type { ModelDriver } from './paths/model-entry.ts';

const isUpload = (h: { group: number; command: number }) => h.group === 1 && h.command === 1;

/**
 * Runs one path of the firmware update model against the real machine, its real SMP actors and
 * the simulated device (two slots, the Wasm parser, Web Crypto signatures) over a scripted link.
 */
export function firmwareUpdateModelDriver(): ModelDriver {
  let rig: UpdateRig | undefined;
  let image = signedImage();
  let actor: ReturnType<typeof start> | undefined;
  let dropOffset = 0;

  function start(r: UpdateRig) {
    return createActor(
      bleUpdateMachine.provide({
        actors: createBleUpdateActors({
          firmware: r.firmware,
          modelId: MODEL,
          download: async () => image.slice(),
          reconnect: { attempts: 2, waitMs: 0 },
          pause: () => Promise.resolve(),
        }),
      }),
      {
        input: { serial: SERIAL, namePrefix: 'HX5K', offer: { id: 1, version: '1.1.0' } },
        inspect: recordCoverage,
      },
    ).start();
  }

  async function run(
    options: Parameters<typeof updateRig>[0],
    script: (r: UpdateRig) => void,
    until: string,
  ) {
    rig = await updateRig(options);
    script(rig);
    actor = start(rig);
    actor.send({ type: 'update.start', transport: rig.transport });
    await waitFor(actor, (s) => s.matches(until as never));
  }

  const snapshot = () => {
    if (!actor) throw new Error('no update started');
    return actor.getSnapshot();
  };
  const failedWith = (state: string, message: string | RegExp) => {
    const s = snapshot();
    expect(s.value).toBe(state);
    if (typeof message === 'string') expect(s.context.problem).toBe(message);
    else expect(s.context.problem).toMatch(message);
  };
  const unchanged = () => {
    expect(rig?.device.runningVersion).toBe('1.0.0');
    expect(rig?.device.slots.confirmed).toBe(true);
  };

  return {
    events: {
      'update.start': () => run({}, () => {}, 'done'),
      'update.startTampered': () => {
        image = signedImage();
        image[600] = (image[600] ?? 0) ^ 0x5a;
        return run({}, () => {}, 'refused');
      },
      'update.startWrongModel': () => {
        image = signedImage('1.1.0', 'BT-10');
        return run({}, () => {}, 'refused');
      },
      'update.startDropped': () =>
        run(
          {},
          (r) => {
            r.link.dropWhen = (h, body) =>
              isUpload(h) && typeof body.off === 'number' && body.off >= image.length * 0.4;
          },
          'done',
        ),
      'update.startUnhealthy': () => run({ healthy: false }, () => {}, 'reverted'),
      'update.startNeverBack': () =>
        run(
          {},
          (r) => {
            r.link.neverBackAfterReset = true;
          },
          'notBack',
        ),
      'update.startOutOfRange': () =>
        run(
          {},
          (r) => {
            r.link.failConnects = 1;
          },
          'failed',
        ),
      'update.retry': async () => {
        actor?.send({ type: 'update.retry' });
        if (actor) await waitFor(actor, (s) => s.matches('done'));
      },
      'update.startChooserClosed': () =>
        run(
          {},
          (r) => {
            r.transport.closeChooser = true;
          },
          'idle',
        ),
      'update.startDeviceRefuses': () => run({ trustsOtherKey: true }, () => {}, 'failed'),
      'update.startLostForGood': () =>
        run(
          {},
          (r) => {
            r.link.dropWhen = (h, body) => {
              const drop = isUpload(h) && typeof body.off === 'number' && body.off >= image.length * 0.4;
              // Out of range from the drop on, through every attempt to connect again.
              if (drop) r.link.failConnects = 2;
              return drop;
            };
          },
          'failed',
        ),
      'update.startThenCancel': async () => {
        await run(
          {},
          (r) => {
            // The first chunk goes; the next waits, so that Cancel comes mid-upload.
            r.link.dropWhen = (h) => {
              if (isUpload(h)) r.link.hold('send');
              return false;
            };
          },
          'uploading',
        );
        actor?.send({ type: 'update.cancel' });
        rig?.link.release();
      },
      'update.startCancelReconnecting': async () => {
        await run(
          {},
          (r) => {
            r.link.dropWhen = (h, body) => {
              const drop = isUpload(h) && typeof body.off === 'number' && body.off >= image.length * 0.4;
              if (drop) {
                dropOffset = body.off as number;
                r.link.hold('connect');
              }
              return drop;
            };
          },
          'reconnecting',
        );
        actor?.send({ type: 'update.cancel' });
        rig?.link.release();
      },
      'update.startReadLost': () =>
        run(
          {},
          (r) => {
            r.link.dropWhen = (h) => h.group === 0 && h.command === 6;
          },
          'failed',
        ),
      'update.startTestLost': () =>
        run(
          {},
          (r) => {
            r.link.dropWhen = (h, body) =>
              h.group === 1 && h.command === 0 && h.op === 2 && body.hash !== undefined;
          },
          'failed',
        ),
      'update.startCheckLost': () =>
        run(
          {},
          (r) => {
            r.link.dropWhen = (h) =>
              h.group === 1 && h.command === 0 && h.op === 0 && (rig?.link.resets ?? 0) > 0;
          },
          'notBack',
        ),
      'update.startConfirmLost': () =>
        run(
          {},
          (r) => {
            r.link.dropWhen = (h, body) =>
              h.group === 1 && h.command === 0 && h.op === 2 && body.confirm === true;
          },
          'unconfirmed',
        ),
      'update.dismiss': async () => {
        actor?.send({ type: 'update.dismiss' });
      },
    },
    states: {
      idle: () => {},
      updated: () => {
        const s = snapshot();
        expect(s.value).toBe('done');
        expect(s.context.after).toBe('1.1.0');
        expect(s.context.problem).toBeNull();
        expect(rig?.device.runningVersion).toBe('1.1.0');
        expect(rig?.device.slots.confirmed).toBe(true);
        expect(s.context.progress.sent).toBe(image.length);
        expect(s.context.resumedFrom).toBeNull();
      },
      updatedAfterDrop: () => {
        const s = snapshot();
        expect(s.value).toBe('done');
        expect(s.context.drops).toBe(1);
        // Resumed where the device stood, not from the start: no chunk at offset 0 after the drop.
        const resumed = s.context.resumedFrom ?? 0;
        expect(resumed).toBeGreaterThanOrEqual(image.length * 0.35);
        const uploads = rig?.link.sent.filter(isUpload) ?? [];
        expect(uploads.length).toBeLessThan(2 * Math.ceil(image.length / 2400) + 4);
        expect(rig?.device.runningVersion).toBe('1.1.0');
        expect(s.context.after).toBe('1.1.0');
      },
      refused: () => {
        failedWith(
          'refused',
          /^The image was refused before anything was sent to the device: .*SHA-256 .*does not match/,
        );
        // Not one message reached the device.
        expect(rig?.link.sent).toEqual([]);
        unchanged();
      },
      refusedModel: () => {
        failedWith(
          'refused',
          'The image was refused before anything was sent to the device: it is for model BT-10, not HX-5000.',
        );
        expect(rig?.link.sent).toEqual([]);
      },
      reverted: () => {
        failedWith('reverted', UPDATE_MESSAGES.reverted('1.0.0'));
        unchanged();
      },
      notBack: () => failedWith('notBack', UPDATE_MESSAGES.notBack),
      outOfRange: () => failedWith('failed', /did not answer/),
      chooserClosed: () => {
        expect(snapshot().value).toBe('idle');
        expect(rig?.link.sent).toEqual([]);
      },
      deviceRefused: () => {
        failedWith(
          'failed',
          'The device answered with access denied: the image is signed with a key this device does not trust.',
        );
        unchanged();
        expect(rig?.device.slots.secondary).toBeNull();
      },
      lostForGood: () => {
        const s = snapshot();
        expect(s.value).toBe('failed');
        expect(s.context.problem).toMatch(/^The connection was lost at \d+ % and could not be made again/);
        expect(rig?.device.uploadOffset).toBeGreaterThan(0);
        unchanged();
      },
      cancelled: () => {
        const s = snapshot();
        expect(s.value).toBe('idle');
        expect(s.context.problem).toBeNull();
        unchanged();
      },
      cancelledReconnecting: () => {
        expect(snapshot().value).toBe('idle');
        // The device keeps what it received, for a later update to go on from.
        expect(rig?.device.uploadOffset).toBe(dropOffset);
        unchanged();
      },
      readFailed: () => failedWith('failed', /connection to the device was lost/),
      testFailed: () => {
        failedWith('failed', /connection to the device was lost/);
        unchanged();
      },
      checkFailed: () => failedWith('notBack', UPDATE_MESSAGES.notBack),
      unconfirmed: () => {
        failedWith('unconfirmed', UPDATE_MESSAGES.unconfirmed);
        // Runs the new image unconfirmed: the next start puts the old one back.
        expect(rig?.device.runningVersion).toBe('1.1.0');
        expect(rig?.device.restart()).toBe('reverted');
      },
      dismissed: () => {
        const s = snapshot();
        expect(s.value).toBe('idle');
        expect(s.context.problem).toBeNull();
      },
    },
  };
}
