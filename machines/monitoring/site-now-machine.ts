import { assign, fromPromise, setup } from 'xstate';
import type { SiteNow } from '../../contracts/monitoring.ts';

/** How often a site's power flow and energy today are read again: a device's telemetry interval. */
export const SITE_NOW_REFRESH_MS = 10_000;

/** Events: the person asks again after a failure. */
export type SiteNowEvent = { type: 'now.retry' };

export interface SiteNowContext {
  siteId: number;
  /** The figures last read; kept while the next read is on its way, or failed. */
  now: SiteNow | null;
  /** Why the last read failed; null once one succeeds. */
  error: string | null;
}

/**
 * A site's power flow now and its energy today, read every {@link SITE_NOW_REFRESH_MS}: the
 * figures stay on screen while the next read is on its way; a failed read says why (the last
 * figures stay), is tried again after the same wait, or at once when the person asks.
 */
export const siteNowMachine = setup({
  types: {
    context: {} as SiteNowContext,
    events: {} as SiteNowEvent,
    input: {} as { siteId: number },
  },
  actors: {
    /** Reads the site's figures now. */
    load: fromPromise<SiteNow, { siteId: number }>(async () => {
      throw new Error('The load actor is not provided');
    }),
  },
  delays: { refresh: SITE_NOW_REFRESH_MS },
}).createMachine({
  id: 'siteNow',
  context: ({ input }) => ({ siteId: input.siteId, now: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'load',
        input: ({ context }) => ({ siteId: context.siteId }),
        onDone: { target: 'shown', actions: assign({ now: ({ event }) => event.output, error: null }) },
        onError: {
          target: 'failed',
          actions: assign({
            error: ({ event }) => (event.error instanceof Error ? event.error.message : String(event.error)),
          }),
        },
      },
    },
    shown: { after: { refresh: 'loading' } },
    failed: { after: { refresh: 'loading' }, on: { 'now.retry': 'loading' } },
  },
});
