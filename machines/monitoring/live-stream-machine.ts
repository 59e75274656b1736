import { assign, fromCallback, setup } from 'xstate';
import type { LiveReading } from '../../contracts/monitoring.ts';

/** A device reporting every 10 s is stale once 35 s pass without a reading (three missed, and some). */
export const LIVE_STALE_MS = 35_000;
/** The first reconnect waits this long; each failure in a row doubles it, up to {@link RECONNECT_MAX_MS}. */
export const RECONNECT_BASE_MS = 1_000;
export const RECONNECT_MAX_MS = 30_000;

/** What the stream actor reports. */
export type LiveStreamActorEvent =
  /** The service accepted the stream. */
  | { type: 'stream.opened' }
  /** A reading, and how old it was when it arrived (by the time it was received by the service). */
  | { type: 'stream.reading'; reading: LiveReading; ageMs: number }
  /** The stream ended or failed (network, token expired, server restart): worth trying again. */
  | { type: 'stream.closed'; message: string }
  /** The service refused it for good (no such device for this person). */
  | { type: 'stream.refused'; message: string };

export type LiveStreamEvent = LiveStreamActorEvent;

export interface LiveStreamInput {
  serial: string;
  /** Stale after this many ms without a reading; {@link LIVE_STALE_MS} by default. */
  staleAfterMs?: number;
}

export interface LiveStreamContext {
  serial: string;
  staleAfterMs: number;
  /** The newest reading received; kept through reconnects. */
  latest: LiveReading | null;
  /** Failures in a row since the last reading: how long the next reconnect waits. */
  failures: number;
  /** Why the stream is down now (retrying or refused). */
  message: string | null;
}

/**
 * A reading in any state of the values: stale at once when it was already old, else fresh, the
 * stale timer started again. On the states themselves, not their region: a re-entering transition
 * of the region would re-enter the whole machine and so reopen the stream.
 */
const READING = [
  { guard: 'readingIsOld', target: 'stale', actions: 'keepReading' },
  { target: 'fresh', reenter: true, actions: 'keepReading' },
] as const;

/** How long the reconnect after `failures` failures in a row waits. */
export const reconnectDelay = (failures: number) =>
  Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** Math.max(0, failures - 1));

/**
 * A device's live values from the monitoring service's stream (`GET …/live`). Two regions:
 * `connection` opens the stream, and when it ends or fails waits (1 s, doubling to 30 s) and opens
 * it again, asking for what it missed (the last reading's id); a refusal (404) ends it. `data`
 * says whether the values shown are fresh: a reading makes them fresh unless it was already
 * older than the stale limit when it came (a device silent since yesterday sends its last reading
 * first); no reading within the limit makes them stale, connected or not.
 */
export const liveStreamMachine = setup({
  types: {
    context: {} as LiveStreamContext,
    events: {} as LiveStreamEvent,
    input: {} as LiveStreamInput,
  },
  actors: {
    /** Opens the stream and reports what happens on it; closing it when stopped. */
    stream: fromCallback<LiveStreamEvent, { serial: string; lastEventId: string | null }>(() => () => {}),
  },
  delays: {
    stale: ({ context }) => context.staleAfterMs,
    reconnect: ({ context }) => reconnectDelay(context.failures),
  },
  guards: {
    readingIsOld: ({ context, event }) =>
      event.type === 'stream.reading' && event.ageMs > context.staleAfterMs,
  },
  actions: {
    keepReading: assign(({ event }) =>
      event.type === 'stream.reading' ? { latest: event.reading, failures: 0, message: null } : {},
    ),
  },
}).createMachine({
  id: 'liveStream',
  type: 'parallel',
  context: ({ input }) => ({
    serial: input.serial,
    staleAfterMs: input.staleAfterMs ?? LIVE_STALE_MS,
    latest: null,
    failures: 0,
    message: null,
  }),
  states: {
    connection: {
      initial: 'streaming',
      states: {
        streaming: {
          invoke: {
            src: 'stream',
            input: ({ context }) => ({
              serial: context.serial,
              lastEventId: context.latest ? String(Date.parse(context.latest.deviceTime)) : null,
            }),
          },
          initial: 'connecting',
          states: {
            connecting: { on: { 'stream.opened': 'open' } },
            open: {},
          },
          on: {
            'stream.closed': {
              target: 'retrying',
              actions: assign({
                failures: ({ context }) => context.failures + 1,
                message: ({ event }) => event.message,
              }),
            },
            'stream.refused': {
              target: 'refused',
              actions: assign({ message: ({ event }) => event.message }),
            },
          },
        },
        retrying: { after: { reconnect: 'streaming' } },
        refused: {},
      },
    },
    data: {
      initial: 'waiting',
      states: {
        waiting: { after: { stale: 'stale' }, on: { 'stream.reading': READING } },
        fresh: { after: { stale: 'stale' }, on: { 'stream.reading': READING } },
        stale: { on: { 'stream.reading': READING } },
      },
    },
  },
});
