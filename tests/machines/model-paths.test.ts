import { describe, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { authModel } from './auth-model.ts';
import { authModelDriver } from './auth-model-driver.ts';
import { devicesListModel } from './devices-list-model.ts';
import { devicesListModelDriver } from './devices-list-model-driver.ts';

// Every shortest and every simple path of each abstract model, run against the real machine
// with hand-answered actors. A fresh driver (and machine) per path.
const suites: Array<[string, AnyStateMachine, () => ReturnType<typeof authModelDriver>]> = [
  ['auth machine', authModel, authModelDriver],
  ['devices list machine', devicesListModel, devicesListModelDriver],
];

for (const [name, machine, driver] of suites) {
  const model = createTestModel(machine);
  describe(`${name}: model-based paths`, () => {
    describe('shortest paths', () => {
      for (const path of model.getShortestPaths()) {
        it(path.description, async () => {
          await path.test(driver());
        });
      }
    });
    describe('simple paths', () => {
      for (const path of model.getSimplePaths()) {
        it(path.description, async () => {
          await path.test(driver());
        });
      }
    });
  });
}
