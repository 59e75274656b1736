import { expect } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { ProvisioningAnswer } from '../../contracts/claims.ts';
import { createBleActors } from '../../machines/ble/ble-actors.ts';
import { provisionMachine } from '../../machines/ble/provision-machine.ts';
import { sendPassword } from '../../src/ble/device-commands.ts';
import { bleHarness, product } from './ble-harness.ts';
import { recordCoverage } from './paths/coverage-recorder.ts';
import type { ModelDriver } from './paths/model-entry.ts';

const PASSWORD = '0042abc';
const ADDRESS = 'wss://fleet.example/config/service-comms/devices/ws';
const REFUSED = "Provisioning a device needs the installer or configurator role on the device's site";

/**
 * Events and state checks that run one path of the provisioning model against the real machine and
 * the real Bluetooth actor (`Provision` over the simulated device of the Bluetooth harness); the
 * service's side answers a new secret each time, or refuses as the service does.
 */
export function provisionModelDriver(): ModelDriver {
  let issued = 0;
  let refuse = false;
  /** Secrets issued before the last "again". */
  let before = 0;
  const started = (async () => {
    const h = await bleHarness({ password: PASSWORD });
    h.connection.send({ type: 'ble.connect', transport: h.transport });
    await waitFor(h.connection, (s) => s.matches('ready'));
    const actors = createBleActors({ codec: h.codec, product });
    const provision = createActor(
      provisionMachine.provide({
        actors: {
          ...actors.provision,
          issue: fromPromise<ProvisioningAnswer, { serial: string }>(async ({ input }) => {
            if (refuse) throw new Error(REFUSED);
            issued += 1;
            return { serialNumber: input.serial, secret: `secret-number-${issued}`, address: ADDRESS };
          }),
        },
      }),
      { input: { serial: h.device.serialNumber }, inspect: recordCoverage },
    ).start();
    return { ...h, provision };
  })();
  const password = async (text: string) => {
    const h = await started;
    await sendPassword(h.codec, h.link(), product, text);
  };
  const start = async (until: 'given' | 'failed') => {
    const h = await started;
    h.provision.send({ type: 'provision.start', link: h.link() });
    await waitFor(h.provision, (s) => s.matches(until));
  };
  const given = async () => {
    const h = await started;
    const s = h.provision.getSnapshot();
    expect(s.matches('given')).toBe(true);
    expect(s.context).toMatchObject({ address: ADDRESS, issued: null, link: null, problem: null });
    // The device keeps the newest secret and the address; the machine keeps no secret.
    expect(h.device.provisioning).toEqual({ secret: `secret-number-${issued}`, address: ADDRESS });
  };
  return {
    events: {
      'provision.start': async () => {
        if (!(await started).device.isUnlocked) await password(PASSWORD);
        await start('given');
      },
      'provision.again': async () => {
        before = issued;
        await start('given');
      },
      'provision.startRefused': async () => {
        refuse = true;
        await start('failed');
        refuse = false;
      },
      'provision.startLocked': async () => {
        await password('wrong');
        await start('failed');
      },
      'provision.retry': async () => {
        await password(PASSWORD);
        await start('given');
      },
      'provision.dismiss': async () => (await started).provision.send({ type: 'provision.dismiss' }),
    },
    states: {
      idle: async () => {
        const s = (await started).provision.getSnapshot();
        expect(s.matches('idle')).toBe(true);
        expect((await started).device.provisioning).toBeNull();
      },
      given,
      givenAgain: async () => {
        await given();
        expect(issued).toBe(before + 1);
      },
      refused: async () => {
        const h = await started;
        const s = h.provision.getSnapshot();
        expect(s.matches('failed')).toBe(true);
        expect(s.context).toMatchObject({ problem: { kind: 'unexpected', message: REFUSED }, issued: null });
        expect(h.device.provisioning).toBeNull();
      },
      locked: async () => {
        const h = await started;
        const s = h.provision.getSnapshot();
        expect(s.matches('failed')).toBe(true);
        expect(s.context.problem).toEqual({
          kind: 'device-error',
          message: 'The device is locked: give its password first.',
        });
        // The secret issued is dropped, never kept by the machine; the device has none.
        expect(s.context.issued).toBeNull();
        expect(h.device.provisioning).toBeNull();
      },
      dismissed: async () => {
        const s = (await started).provision.getSnapshot();
        expect(s.matches('idle')).toBe(true);
        expect(s.context.problem).toBeNull();
      },
    },
  };
}
