import { expect } from 'vitest';
import { createActor } from 'xstate';
import { devicePageSchema } from '../../contracts/devices.ts';
import type { InstalledDevice } from '../../contracts/installs.ts';
import {
  type ActionResult,
  type DeviceAction,
  deviceActionMachine,
} from '../../machines/commissioning/device-action-machine.ts';
import { statusOf } from '../../src/api/api-error.ts';
import { installDevice, removeInstall } from '../../src/api/commissioning-api.ts';
import { performDeviceAction } from '../../src/features/devices/device-action-actors.ts';
import { IDS } from '../server/harness.ts';
import { commissioningService, letGo } from './commissioning-service.ts';
import { controlledActor } from './fakes.ts';
import { recordCoverage } from './paths/coverage-recorder.ts';
import type { ModelDriver } from './paths/model-entry.ts';

const SITE = IDS.siteOfA;
/** The installer's other site, where a move takes the device. */
const OTHER_SITE = IDS.siteOfA + 1;
const NEW_NAME = 'Garage inverter';

/**
 * Events and state checks that run one path of the device-action model against the real machine.
 * Each path puts a device of its own on installer A's site; every action the machine performs
 * goes, when the path lets it, through the app's commissioning calls to the configuration service
 * in process, as the device page wires them, so the refusals are the service's own.
 */
export function deviceActionModelDriver(): ModelDriver {
  const perform = controlledActor<ActionResult, DeviceAction>();
  const refresh = controlledActor<void, unknown>();
  let left = 0;
  const actor = createActor(
    deviceActionMachine.provide({
      actors: { perform: perform.logic, refresh: refresh.logic },
      actions: {
        leave: () => {
          left += 1;
        },
      },
    }),
    { inspect: recordCoverage },
  ).start();
  const snap = () => actor.getSnapshot();
  let installed: Promise<InstalledDevice> | null = null;
  /** This path's device, put on the site the first time it is needed. */
  const device = () => {
    installed ??= commissioningService().then((s) =>
      installDevice(s.api, SITE, { serial: s.freshSerial('HX5K'), modelId: 'HX-5000', name: 'Roof' }),
    );
    return installed;
  };
  /** What the device page's `perform` does with a confirmed action: the app's own calls. */
  const performs = async (action: DeviceAction): Promise<ActionResult> =>
    performDeviceAction((await commissioningService()).api, (await device()).id, action);
  let confirmed: DeviceAction | null = null;
  let replacement = '';
  const confirm = async (action: DeviceAction) => {
    await device();
    confirmed = action;
    actor.send({ type: 'action.confirm', action });
  };
  /** The unit of that serial as the service has it now (installer A sees every site it is on), or null. */
  const unitNow = async (serial: string) => {
    const { api } = await commissioningService();
    try {
      return (
        devicePageSchema.parse(await api('/install/device/HX-5000', { query: { serial } })).items[0] ?? null
      );
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
  };

  const closed = () => {
    expect(snap().value).toBe('idle');
    expect(snap().context).toEqual({ open: null, error: null, result: null });
  };
  const dialog = (kind: DeviceAction['kind'], error: string | null) => {
    expect(snap().value).toBe('confirming');
    expect(snap().context).toEqual({ open: kind, error, result: null });
  };
  const working = (kind: DeviceAction['kind']) => {
    expect(snap().value).toBe('working');
    expect(snap().context.open).toBe(kind);
    expect(perform.last().input).toEqual(confirmed);
    expect(perform.last().settled).toBe(false);
  };
  /** Saved with the device as the service now has it, the page loading again, the dialog still open on `kind`. */
  const changed = async (kind: 'rename' | 'move', name: string, siteId: number) => {
    expect(snap().value).toBe('refreshing');
    expect(refresh.calls).toHaveLength(1);
    expect(refresh.last().settled).toBe(false);
    const { serial, id } = await device();
    expect(snap().context).toMatchObject({
      open: kind,
      error: null,
      result: { kind: 'changed', device: { id, serial, name, siteId } },
    });
    expect(await unitNow(serial)).toMatchObject({ id, name, siteId });
  };

  return {
    events: {
      'open.rename': () => actor.send({ type: 'action.open', kind: 'rename' }),
      'open.move': () => actor.send({ type: 'action.open', kind: 'move' }),
      'open.replace': () => actor.send({ type: 'action.open', kind: 'replace' }),
      'open.remove': () => actor.send({ type: 'action.open', kind: 'remove' }),
      'dialog.cancel': () => actor.send({ type: 'action.cancel' }),
      'page.reloaded': () => refresh.last().resolve(),
      'page.reloadFails': () => refresh.last().reject(new Error('Failed to fetch')),
      'rename.confirm': () => confirm({ kind: 'rename', name: NEW_NAME }),
      'move.confirm': () => confirm({ kind: 'move', siteId: OTHER_SITE }),
      'replace.confirmTaken': async () =>
        confirm({ kind: 'replace', serial: (await commissioningService()).serialOfOtherInstaller }),
      'replace.confirm': async () => {
        replacement = (await commissioningService()).freshSerial('HX5K');
        await confirm({ kind: 'replace', serial: replacement.toLowerCase() });
      },
      'remove.confirm': () => confirm({ kind: 'remove' }),
      'other.removes': async () => removeInstall((await commissioningService()).api, (await device()).id),
      'service.answers': () => letGo(perform.last(), performs),
    },
    states: {
      idle: closed,
      closed: () => {
        closed();
        expect(refresh.calls).toHaveLength(0);
      },
      closedAfterChange: () => {
        closed();
        expect(refresh.calls).toHaveLength(1);
      },
      closedAfterReplace: () => {
        closed();
        expect(refresh.calls).toHaveLength(0);
      },
      renameDialog: () => dialog('rename', null),
      moveDialog: () => dialog('move', null),
      replaceDialog: () => dialog('replace', null),
      removeDialog: () => dialog('remove', null),
      removeDialogGone: async () => {
        dialog('remove', null);
        expect(await unitNow((await device()).serial)).toBeNull();
      },
      renameAfterRemoval: () => dialog('rename', null),
      renaming: () => working('rename'),
      stillRenaming: () => working('rename'),
      moving: () => working('move'),
      replacingTaken: () => working('replace'),
      replacing: () => working('replace'),
      removing: () => working('remove'),
      removingGone: () => working('remove'),
      renamingRemoved: () => working('rename'),
      renamed: () => changed('rename', NEW_NAME, SITE),
      moved: () => changed('move', 'Roof', OTHER_SITE),
      replaceRefused: async () =>
        dialog(
          'replace',
          `${(await commissioningService()).serialOfOtherInstaller} is installed at a site you cannot see; it must be taken off that site first`,
        ),
      replaced: async () => {
        expect(snap().value).toBe('done');
        const result = snap().context.result;
        expect(result?.kind).toBe('replaced');
        expect(refresh.calls).toHaveLength(0);
        expect(left).toBe(0);
        const unit = result?.kind === 'replaced' ? result.device : null;
        // The new unit takes the old one's name and place, with a secret of its own.
        expect(unit).toMatchObject({ serial: replacement, name: 'Roof', siteId: SITE, modelId: 'HX-5000' });
        expect(unit?.secret).toMatch(/\S{16,}/);
        expect(unit?.secret).not.toBe((await device()).secret);
        expect(await unitNow(replacement)).toMatchObject({ name: 'Roof', siteId: SITE });
        expect(await unitNow((await device()).serial)).toBeNull();
      },
      removed: async () => {
        expect(snap().value).toBe('done');
        expect(snap().context).toEqual({ open: 'remove', error: null, result: { kind: 'removed' } });
        // The page is left for the site's, once: its own loaders do not run again.
        expect(left).toBe(1);
        expect(refresh.calls).toHaveLength(0);
        expect(await unitNow((await device()).serial)).toBeNull();
      },
      // The unit was taken off meanwhile (another tab, another person): the service says so.
      removeRefused: async () =>
        dialog(
          'remove',
          `${(await device()).serial} was taken off its site; reload to see the site as it is now`,
        ),
      renameRefused: async () =>
        dialog(
          'rename',
          `${(await device()).serial} was taken off its site; reload to see the site as it is now`,
        ),
    },
  };
}
