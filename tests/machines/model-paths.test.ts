import { describe, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { authModel } from './auth-model.ts';
import { authModelDriver } from './auth-model-driver.ts';
import {
  bleConnectionModelDriver,
  blePasswordModelDriver,
  bleWriteModelDriver,
} from './ble-model-drivers.ts';
import { bleConnectionModel, blePasswordModel, bleWriteModel } from './ble-models.ts';
import { catalogueModel } from './catalogue-model.ts';
import { catalogueModelDriver } from './catalogue-model-driver.ts';
import { configureSessionModel } from './configure-session-model.ts';
import { configureSessionModelDriver } from './configure-session-model-driver.ts';

// Every shortest and every simple path of each abstract model, run against the real machine
// with hand-answered actors. A fresh driver (and machine) per path.
const suites: Array<[string, AnyStateMachine, () => ReturnType<typeof authModelDriver>]> = [
  ['auth machine', authModel, authModelDriver],
  ['catalogue machine', catalogueModel, catalogueModelDriver],
  ['Bluetooth connection machine', bleConnectionModel, bleConnectionModelDriver],
  ['Bluetooth password machine', blePasswordModel, blePasswordModelDriver],
  ['Bluetooth write machine', bleWriteModel, bleWriteModelDriver],
  ['Configure session machine', configureSessionModel, configureSessionModelDriver],
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
