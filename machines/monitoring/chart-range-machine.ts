import { assign, fromPromise, setup } from 'xstate';

/** The ranges a chart shows, ending now. */
export const CHART_RANGES = ['24h', '7d', '30d', '1y'] as const;
export type ChartRange = (typeof CHART_RANGES)[number];

/** How long each range is. */
export const RANGE_MS: Readonly<Record<ChartRange, number>> = {
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
  '1y': 365 * 86_400_000,
};

/**
 * One line of a chart: what it is (the legend's words), its unit, its colour (a role's, the same
 * on every screen; left out, one of the others) and its points `[epoch ms, value]`.
 */
export interface ChartLine {
  label: string;
  unit: string;
  colour?: string;
  points: readonly (readonly [number, number])[];
}

/**
 * One chart: a title, lines (or bars, for energy per day) over the range asked for (`from`, `to`,
 * epoch ms). `partialFrom`: where the last step starts when it is still under way (today so far),
 * drawn as partial; null when every step is whole.
 */
export interface ChartData {
  key: string;
  title: string;
  kind: 'line' | 'bars';
  lines: ChartLine[];
  from: number;
  to: number;
  partialFrom: number | null;
}

/** Events: the person picks a range, or asks again after a failure. */
export type ChartRangeEvent = { type: 'range.select'; range: ChartRange } | { type: 'charts.retry' };

export interface ChartRangeContext {
  range: ChartRange;
  /** The charts of the range shown (kept while another range loads); null before the first answer. */
  charts: ChartData[] | null;
  error: string | null;
}

/**
 * The charts of a device or a site over one range: loads the range (the actor fetches every
 * series the screen draws), shows it, and loads again when the person picks another range. A
 * range picked while one loads cancels that load; the charts of the last range stay on screen
 * meanwhile. A failed load says why and offers to try again.
 */
export const chartRangeMachine = setup({
  types: {
    context: {} as ChartRangeContext,
    events: {} as ChartRangeEvent,
    input: {} as { range?: ChartRange },
  },
  actors: {
    /** Fetches every chart of a range. */
    loadCharts: fromPromise<ChartData[], { range: ChartRange }>(async () => []),
  },
  actions: {
    pickRange: assign({
      range: ({ context, event }) => (event.type === 'range.select' ? event.range : context.range),
    }),
  },
}).createMachine({
  id: 'chartRange',
  context: ({ input }) => ({ range: input.range ?? '24h', charts: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadCharts',
        input: ({ context }) => ({ range: context.range }),
        onDone: { target: 'shown', actions: assign({ charts: ({ event }) => event.output, error: null }) },
        onError: {
          target: 'failed',
          actions: assign({
            error: ({ event }) => (event.error instanceof Error ? event.error.message : String(event.error)),
          }),
        },
      },
      on: { 'range.select': { target: 'loading', reenter: true, actions: 'pickRange' } },
    },
    shown: { on: { 'range.select': { target: 'loading', actions: 'pickRange' } } },
    failed: {
      on: {
        'range.select': { target: 'loading', actions: 'pickRange' },
        'charts.retry': 'loading',
      },
    },
  },
});
