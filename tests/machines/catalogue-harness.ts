import { createActor, fromPromise, SimulatedClock, waitFor } from 'xstate';
import type { Catalogue, ConvertList } from '../../contracts/catalogue.ts';
import { type CompanionLists, catalogueMachine } from '../../machines/catalogue/catalogue-machine.ts';
import { isLoading } from '../../machines/catalogue/catalogue-selectors.ts';
import { CACHE_KEYS } from '../../machines/storage-keys.ts';
import { readCachedList } from '../../src/features/catalogue/catalogue-actors.ts';
import { controlledActor, MemoryStorage } from './fakes.ts';
import { recordCoverage } from './paths/coverage-recorder.ts';

/** A one-model list in the shape of the bundled catalogue. */
export function sampleList(listVersion: number, id = 'HX-5000'): Catalogue {
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

/**
 * The real catalogue machine over hand-answered actors and a simulated clock. `cached` is
 * what an earlier visit left in storage; the app's own cache reader reads it.
 */
export function startCatalogue(options: { cached?: unknown } = {}) {
  const storage = new MemoryStorage();
  if (options.cached !== undefined) storage.setItem(CACHE_KEYS.catalogue, JSON.stringify(options.cached));
  const download = controlledActor<Catalogue, { held: Catalogue | null }>();
  const bundled = controlledActor<Catalogue, { path: string }>();
  const companions = controlledActor<CompanionLists, void>();
  const navigations: string[] = [];
  /** Answers of the leave guard to come: true for a person who chooses to stay, 'fails' for a navigation that fails. */
  const stays: (boolean | 'fails')[] = [];
  const clock = new SimulatedClock();
  const machine = catalogueMachine.provide({
    actors: {
      readCachedList: fromPromise(async ({ input }: { input: { storage: Storage } }) =>
        readCachedList(input.storage),
      ),
      fetchCatalogue: download.logic,
      loadBundledList: bundled.logic,
      loadCompanionLists: companions.logic,
      leaveForLanding: fromPromise(async () => {
        navigations.push('/landing');
        const answer = stays.shift();
        if (answer === 'fails') throw new Error('The navigation to landing failed');
        return answer === undefined || !answer;
      }),
    },
  });
  const actor = createActor(machine, { input: { storage }, clock, inspect: recordCoverage }).start();
  /** Waits until `logic` has a call waiting for an answer. */
  const started = (logic: { pending: () => unknown[] }) => waitFor(actor, () => logic.pending().length > 0);
  /** Waits until the load under way has ended. */
  const loaded = () => waitFor(actor, (s) => !isLoading(s));
  return { actor, storage, download, bundled, companions, navigations, stays, clock, started, loaded };
}
