import { configureSessionMachine } from '../../../machines/ble/configure-session-machine.ts';
import { configureSessionModel, configureSessionModelWords } from '../configure-session-model.ts';
import { configureSessionModelDriver } from '../configure-session-model-driver.ts';
import { defineModel } from '../paths/model-entry.ts';

export default defineModel({
  ...configureSessionModelWords,
  events: { ...configureSessionModelWords.events },
  states: { ...configureSessionModelWords.states },
  machine: configureSessionMachine,
  model: configureSessionModel,
  driver: configureSessionModelDriver,
});
