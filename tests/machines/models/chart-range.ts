import { expect } from 'vitest';
import { createActor, createMachine, waitFor } from 'xstate';
import {
  type ChartData,
  type ChartRange,
  chartRangeMachine,
} from '../../../machines/monitoring/chart-range-machine.ts';
import { controlledActor } from '../fakes.ts';
import { recordCoverage } from '../paths/coverage-recorder.ts';
import { defineModel, type ModelDriver } from '../paths/model-entry.ts';

/** Abstract model of a screen's charts: a range loads, shows or fails, another range is picked. */
const model = createMachine({
  id: 'chartRangeModel',
  initial: 'loading',
  states: {
    loading: { on: { 'charts.arrive': 'shown', 'charts.fail': 'failed', 'range.pick': 'loadingAnother' } },
    loadingAnother: { on: { 'charts.arrive': 'shown', 'charts.fail': 'failed' } },
    shown: { on: { 'range.pick': 'reloading' } },
    reloading: { on: { 'charts.arrive': 'shown', 'charts.fail': 'failed' } },
    failed: { on: { 'charts.retry': 'retrying', 'range.pick': 'loadingAnother' } },
    retrying: { on: { 'charts.arrive': 'shown' } },
  },
});

const RANGES: ChartRange[] = ['7d', '30d', '1y', '24h'];

/** Events and state checks that run one path against the real machine, its loads answered by hand. */
function driver(): ModelDriver {
  const loadCharts = controlledActor<ChartData[], { range: ChartRange }>();
  const actor = createActor(chartRangeMachine.provide({ actors: { loadCharts: loadCharts.logic } }), {
    input: {},
    inspect: recordCoverage,
  }).start();
  const snap = () => actor.getSnapshot();
  let range: ChartRange = '24h';
  let picks = 0;
  let shown: ChartData[] | null = null;
  const chartsOf = (r: ChartRange): ChartData[] => [
    {
      key: 'power',
      title: `Power ${r}`,
      kind: 'line',
      lines: [{ label: 'PV', unit: 'W', points: [[0, 1]] }],
      from: 0,
      to: 1,
      partialFrom: null,
    },
  ];
  const loadingOf = () => {
    expect(snap().value).toBe('loading');
    expect(snap().context.range).toBe(range);
    // The newest load is for the range picked; the charts shown stay meanwhile.
    expect(loadCharts.last().settled).toBe(false);
    expect(loadCharts.last().input).toEqual({ range });
    expect(snap().context.charts).toEqual(shown);
  };
  return {
    events: {
      'charts.arrive': async () => {
        shown = chartsOf(range);
        await loadCharts.last().resolve(shown);
      },
      'charts.fail': () => loadCharts.last().reject(new Error('The monitoring service is not answering.')),
      'range.pick': async () => {
        range = RANGES[picks % RANGES.length] as ChartRange;
        picks += 1;
        const before = loadCharts.calls.length;
        actor.send({ type: 'range.select', range });
        await waitFor(actor, () => loadCharts.calls.length === before + 1);
      },
      'charts.retry': () => actor.send({ type: 'charts.retry' }),
    },
    states: {
      loading: loadingOf,
      loadingAnother: loadingOf,
      reloading: loadingOf,
      retrying: () => {
        loadingOf();
        expect(snap().context.error).toBe('The monitoring service is not answering.');
      },
      shown: () => {
        expect(snap().value).toBe('shown');
        expect(snap().context).toEqual({ range, charts: shown, error: null });
      },
      failed: () => {
        expect(snap().value).toBe('failed');
        expect(snap().context.error).toBe('The monitoring service is not answering.');
        expect(snap().context.charts).toEqual(shown);
      },
    },
  };
}

export default defineModel({
  name: 'chart-range',
  title: 'Charts of a device or a site over a range',
  source: 'machines/monitoring/chart-range-machine.ts',
  about:
    'The charts of a range load, show, or fail with the reason and a retry; picking another range loads it, cancelling a load still under way, while the charts already shown stay.',
  machine: chartRangeMachine,
  model,
  driver,
  events: {
    'charts.arrive': 'Every series of the range arrives.',
    'charts.fail': 'A series fails (the service is down, or refuses).',
    'range.pick': 'The person picks another range (7 days, 30 days, a year, 24 hours in turn).',
    'charts.retry': 'The person presses Try again.',
  },
  states: {
    loading: 'The screen opened: the last 24 hours load.',
    loadingAnother: 'Another range loads; a load still under way was cancelled.',
    shown: 'The charts of the range picked.',
    reloading: 'Another range loads; the charts shown stay meanwhile.',
    failed: 'The reason and Try again; the charts shown before stay.',
    retrying: 'The same range loads again after a failure.',
  },
});
