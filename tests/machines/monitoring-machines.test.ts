import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock, waitFor } from 'xstate';
import type { LiveReading } from '../../contracts/monitoring.ts';
import {
  type ChartData,
  type ChartRange,
  chartRangeMachine,
} from '../../machines/monitoring/chart-range-machine.ts';
import { fleetLiveMachine } from '../../machines/monitoring/fleet-live-machine.ts';
import {
  liveStreamMachine,
  RECONNECT_MAX_MS,
  reconnectDelay,
} from '../../machines/monitoring/live-stream-machine.ts';
import { createFleetStreamActor } from '../../src/api/fleet-stream.ts';
import { createLiveStreamActor } from '../../src/api/live-stream.ts';
import type { TokenSession } from '../../src/api/token-session.ts';
import { controlledActor } from './fakes.ts';

const reading = (second: number): LiveReading => {
  const at = new Date(Date.UTC(2026, 2, 4, 12, 0, second)).toISOString();
  return {
    serial: 'HX5K-24-000133',
    receivedAt: at,
    deviceTime: at,
    clockAhead: false,
    values: { pvPower: second },
  };
};

/** A `fetch` answering the live stream with `chunks` of text (split anywhere), or a status. */
function streamFetch(answers: ({ status: number } | { chunks: string[] })[]) {
  const calls: { url: string; headers: Record<string, string> }[] = [];
  const fetchImpl = (async (url: string, init?: RequestInit) => {
    calls.push({ url, headers: init?.headers as Record<string, string> });
    const answer = answers.shift() ?? { status: 500 };
    if ('status' in answer) return new Response(null, { status: answer.status });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of answer.chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  }) as typeof fetch;
  return { fetchImpl, calls };
}

function session(tokens: string[]): TokenSession {
  let token = 'first-token';
  return {
    getAccessToken: () => token as never,
    refresh: async () => {
      token = tokens.shift() ?? 'refreshed';
      return token as never;
    },
  };
}

describe('the live stream', () => {
  it('waits 1 s after a first failure, doubling, and never more than 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 10].map(reconnectDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    expect(reconnectDelay(60)).toBe(RECONNECT_MAX_MS);
  });

  it('reads readings split across chunks, skips comments and other events, and reports the end', async () => {
    const event = (r: LiveReading) =>
      `event: reading\nid: ${Date.parse(r.deviceTime)}\ndata: ${JSON.stringify(r)}\n\n`;
    const text = `: keep-alive\n\n${event(reading(10))}event: other\ndata: {}\n\n${event(reading(20))}`;
    const { fetchImpl, calls } = streamFetch([
      { chunks: [text.slice(0, 37), text.slice(37, 90), text.slice(90)] },
    ]);
    const now = () => Date.parse(reading(25).receivedAt);
    const stream = createLiveStreamActor({
      baseURL: '/monitoring/',
      session: session([]),
      fetch: fetchImpl,
      now,
    });
    const actor = createActor(liveStreamMachine.provide({ actors: { stream } }), {
      input: { serial: 'HX5K-24-000133' },
    }).start();
    await waitFor(actor, (s) => s.matches({ connection: 'retrying' }));
    expect(actor.getSnapshot().context.latest).toEqual(reading(20));
    expect(actor.getSnapshot().matches({ data: 'fresh' })).toBe(true);
    expect(actor.getSnapshot().context.message).toBe('The live stream ended.');
    expect(calls[0]?.url).toBe('/monitoring/devices/HX5K-24-000133/live');
    expect(calls[0]?.headers).toMatchObject({
      Authorization: 'Bearer first-token',
      Accept: 'text/event-stream',
    });
    actor.stop();
  });

  it('refreshes the session once on 401, and takes a 404 as a refusal it does not retry', async () => {
    const { fetchImpl, calls } = streamFetch([{ status: 401 }, { status: 404 }]);
    const stream = createLiveStreamActor({
      baseURL: '/monitoring',
      session: session(['second-token']),
      fetch: fetchImpl,
    });
    const clock = new SimulatedClock();
    const actor = createActor(liveStreamMachine.provide({ actors: { stream } }), {
      input: { serial: 'HX5K-24-000133' },
      clock,
    }).start();
    await waitFor(actor, (s) => s.matches({ connection: 'refused' }));
    expect(calls.map((c) => c.headers.Authorization)).toEqual(['Bearer first-token', 'Bearer second-token']);
    clock.increment(60_000);
    expect(calls).toHaveLength(2);
    expect(actor.getSnapshot().matches({ data: 'stale' })).toBe(true);
    actor.stop();
  });
});

describe('the fleet stream', () => {
  it("reads the sites that changed, and refreshes the screen for its site's changes only", async () => {
    const change = (sites: number[] | null) => `event: change\ndata: ${JSON.stringify({ sites })}\n\n`;
    const text = `: open\n\n${change([4])}event: other\ndata: {}\n\n${change([3, 9])}${change(null)}`;
    const { fetchImpl, calls } = streamFetch([
      { chunks: [text.slice(0, 20), text.slice(20)] },
      { status: 500 },
    ]);
    const refresh = controlledActor<void, unknown>();
    const stream = createFleetStreamActor({
      baseURL: '/monitoring/',
      session: session([]),
      fetch: fetchImpl,
    });
    const actor = createActor(fleetLiveMachine.provide({ actors: { stream, refresh: refresh.logic } }), {
      input: { siteId: 3 },
    }).start();
    // Opened: the screen loads the newest; site 4 is not its site; 3 and "any" come during that load.
    await waitFor(actor, (s) => s.matches({ connection: 'retrying' }));
    expect(refresh.calls).toHaveLength(1);
    expect(actor.getSnapshot().context).toMatchObject({ again: true, message: 'The live updates ended.' });
    await refresh.last().resolve(undefined);
    await waitFor(actor, () => refresh.calls.length === 2);
    await refresh.last().resolve(undefined);
    expect(actor.getSnapshot().matches({ screen: 'shown' })).toBe(true);
    expect(calls[0]?.url).toBe('/monitoring/fleet/live');
    actor.stop();
  });

  it('takes a 403 as a refusal it does not retry', async () => {
    const { fetchImpl, calls } = streamFetch([{ status: 403 }]);
    const clock = new SimulatedClock();
    const stream = createFleetStreamActor({ baseURL: '/monitoring', session: session([]), fetch: fetchImpl });
    const actor = createActor(fleetLiveMachine.provide({ actors: { stream } }), { input: {}, clock }).start();
    await waitFor(actor, (s) => s.matches({ connection: 'refused' }));
    clock.increment(60_000);
    expect(calls).toHaveLength(1);
    expect(actor.getSnapshot().context.message).toBe('Live updates are not available to you.');
    actor.stop();
  });
});

describe('the charts of a range', () => {
  it('ignores the late answer of a load the person moved away from', async () => {
    const load = controlledActor<ChartData[], { range: ChartRange }>();
    const actor = createActor(chartRangeMachine.provide({ actors: { loadCharts: load.logic } }), {
      input: {},
    }).start();
    actor.send({ type: 'range.select', range: '1y' });
    const chart = (title: string): ChartData[] => [
      { key: 'power', title, kind: 'line', lines: [], from: 0, to: 1, partialFrom: null },
    ];
    await load.calls[0]?.resolve(chart('24 hours'));
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context.charts).toBeNull();
    await load.last().resolve(chart('a year'));
    expect(actor.getSnapshot().context).toMatchObject({ range: '1y', charts: chart('a year') });
  });
});
