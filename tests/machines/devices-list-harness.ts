import { createActor, SimulatedClock } from 'xstate';
import type { ConvertList, DevicesList } from '../../contracts/devices-list.ts';
import { type CompanionLists, devicesListMachine } from '../../machines/devices-list-machine.ts';
import { controlledActor, MemoryStorage } from './fakes.ts';

/** A one-model list in the shape of the bundled catalogue. */
export function sampleList(listVersion: number, id = 'HX-5000'): DevicesList {
  return {
    listVersion,
    devicesList: {
      [id]: {
        productKey: 'hybrid5k',
        name: 'Helios HX-5000 Hybrid Inverter',
        serialPrefix: 'HX5K',
        commands: [{ name: 'Read configuration', opCode: 1 }],
        write: {
          bufferSize: 255,
          service: '7a1f0001-3c2e-4d6b-9e1a-5b0c8f4d2a61',
          characteristic: '7a1f0002-3c2e-4d6b-9e1a-5b0c8f4d2a61',
        },
      },
    },
  };
}

export const sampleConvertList: ConvertList = { hybrid5k: 'hybrid5k-to-form.json' };

/** The real devices-list machine over hand-answered actors and a simulated clock. */
export function startDevicesList() {
  const storage = new MemoryStorage();
  const download = controlledActor<DevicesList, { listVersion: number }>();
  const bundled = controlledActor<DevicesList, { path: string }>();
  const companions = controlledActor<CompanionLists, void>();
  const navigations: string[] = [];
  const clock = new SimulatedClock();
  const machine = devicesListMachine.provide({
    actors: {
      fetchDevicesList: download.logic,
      loadBundledList: bundled.logic,
      loadCompanionLists: companions.logic,
    },
    actions: { navigateToLanding: () => navigations.push('/landing') },
  });
  const actor = createActor(machine, { input: { storage }, clock }).start();
  return { actor, storage, download, bundled, companions, navigations, clock };
}
