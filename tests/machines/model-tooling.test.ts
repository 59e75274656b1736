import { describe, expect, it } from 'vitest';
import { type AnyStateMachine, createActor, createMachine, fromPromise, setup } from 'xstate';
import { coverageOf } from './paths/coverage.ts';
import { recordCoverage } from './paths/coverage-recorder.ts';
import { machineGraph } from './paths/machine-graph.ts';
import { defineModel, type MachineModel } from './paths/model-entry.ts';
import { loadModels } from './paths/registry.ts';

/** A small machine with each kind of transition the coverage reads. */
const kettle = setup({
  actors: { heat: fromPromise<void>(async () => undefined) },
  guards: { full: () => true },
  delays: { cool: 1000 },
}).createMachine({
  id: 'kettle',
  initial: 'checking',
  states: {
    checking: { always: [{ guard: 'full', target: 'idle' }, { target: 'empty' }] },
    empty: {},
    idle: { on: { 'kettle.on': 'heating' } },
    heating: { invoke: { src: 'heat', onDone: 'hot', onError: 'idle' } },
    hot: { after: { cool: 'idle' } },
  },
});
const kettleModel = createMachine({
  id: 'kettleModel',
  initial: 'idle',
  states: { idle: { on: { 'kettle.on': 'hot' } }, hot: {} },
});
const entry = (overrides: Partial<MachineModel> = {}): MachineModel => ({
  name: 'kettle',
  title: 'Kettle',
  source: 'tests/machines/model-tooling.test.ts',
  about: 'A kettle.',
  machine: kettle,
  model: kettleModel,
  driver: () => ({ events: {}, states: {} }),
  events: { 'kettle.on': 'The person switches the kettle on.' },
  states: { idle: 'Cold.', hot: 'Hot.' },
  ...overrides,
});

describe('the model-based test tooling', () => {
  it("reads a machine's states and every kind of transition from its definition", () => {
    const graph = machineGraph(kettle);
    expect(graph.states.map((s) => s.label)).toEqual(['checking', 'empty', 'idle', 'heating', 'hot']);
    expect(graph.transitions.map((t) => t.label).sort()).toEqual(
      [
        'checking → idle on (at once) [full]',
        'checking → empty on (at once) [otherwise]',
        'idle → heating on kettle.on',
        'heating → hot on heat answers',
        'heating → idle on heat fails',
        'hot → idle on after cool',
      ].sort(),
    );
  });

  it('counts what a running actor reached, and names the rest as missed without a reason', async () => {
    const actor = createActor(kettle, { inspect: recordCoverage }).start();
    actor.send({ type: 'kettle.on' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    const coverage = coverageOf(entry());
    expect(coverage.states.missed.map((m) => m.label)).toEqual(['empty']);
    expect(coverage.transitions.missed.map((m) => m.label).sort()).toEqual(
      [
        'checking → empty on (at once) [otherwise]',
        'heating → idle on heat fails',
        'hot → idle on after cool',
      ].sort(),
    );
    expect(coverage.meetsTargets).toBe(false);
    actor.stop();
  });

  it('leaves what is named unreachable out of the target, and refuses a name that matches nothing', () => {
    const unreachable = {
      empty: 'The kettle is always full here.',
      'checking → empty on (at once) [otherwise]': 'The kettle is always full here.',
      'heating → idle on heat fails': 'Heating never fails here.',
      'hot → idle on after cool': 'Nobody waits.',
    };
    expect(coverageOf(entry({ unreachable })).meetsTargets).toBe(true);
    const stale = coverageOf(
      entry({ unreachable: { ...unreachable, 'hot → empty on kettle.off': 'no such' } }),
    );
    expect(stale.stale).toEqual(['hot → empty on kettle.off']);
    expect(stale.meetsTargets).toBe(false);
  });

  it('refuses a model whose events or states are not all described', () => {
    expect(() => defineModel(entry({ events: {} }))).toThrow('event kettle.on has no description');
    expect(() => defineModel(entry({ states: { idle: 'Cold.' } }))).toThrow('state hot has no description');
  });

  it('has a model for every machine in machines/', async () => {
    const modules = import.meta.glob<Record<string, unknown>>(['../../machines/**/*.ts'], { eager: true });
    const machines = Object.values(modules)
      .flatMap((m) => Object.values(m))
      .filter(
        (v): v is AnyStateMachine => typeof v === 'object' && v !== null && 'root' in v && 'provide' in v,
      );
    const modelled = new Set((await loadModels()).map((m) => m.machine.id));
    const ids = [...new Set(machines.map((m) => m.id))];
    expect(ids.length).toBeGreaterThanOrEqual(11);
    expect(ids.filter((id) => !modelled.has(id))).toEqual([]);
  });
});
