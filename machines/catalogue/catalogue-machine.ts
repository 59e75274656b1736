import { assign, fromPromise, setup } from 'xstate';
import type { Catalogue, ConvertList } from '../../contracts/catalogue.ts';
import { errorMessage } from '../../contracts/error-message.ts';
import { CACHE_KEYS } from '../storage-keys.ts';
import { catalogueErrorMessage } from './catalogue-error.ts';

/** The refresh button stays disabled this long after a refresh (specification §9). */
export const REFRESH_COOLDOWN_MS = 20_000;
/** Bundled fallback used when the download fails (specification §7). */
export const BUNDLED_CATALOGUE = '/devices-list.json';
/** Bundled list of E1 devices. */
export const BUNDLED_E1_CATALOGUE = '/devices-list-e1.json';
/** Bundled convert list: product key → `{product}-to-form.json`. */
export const BUNDLED_CONVERT_LIST = '/convert-list.json';

export interface CatalogueContext {
  storage: Storage;
  /** Version of the downloaded list; -1 before a download and after a failed one. */
  listVersion: number;
  /** Device models by id (`devicesList` of the downloaded or the bundled file). */
  models: Catalogue['devicesList'] | null;
  /** E1 device models by id (`devices-list-e1.json`). */
  e1Models: Catalogue['devicesList'] | null;
  convertList: ConvertList | null;
  /** `ERROR getting Devices List.` and the serialized response, after a failed download. */
  error: string | null;
  /** Why the E1 list or the convert list could not be read, if it could not. */
  companionError: string | null;
  /** The download failed and the bundled list could not be read either. */
  fallbackFailed: boolean;
  /** The version held when the refresh under way began. */
  refreshFrom: number | null;
  /** What the last refresh found, and when it ended (milliseconds since the epoch). */
  lastRefresh: RefreshOutcome | null;
}

/** What a refresh found: the same version, a newer one, or no answer (the bundled copy is used). */
export interface RefreshOutcome {
  outcome: 'unchanged' | 'updated' | 'fallback';
  version: number;
  at: number;
}

export type CatalogueEvent = { type: 'catalogue.load' } | { type: 'catalogue.refresh' };

export interface CompanionLists {
  e1Catalogue: Catalogue;
  convertList: ConvertList;
}

const catalogueSetup = setup({
  types: {
    context: {} as CatalogueContext,
    events: {} as CatalogueEvent,
    input: {} as { storage: Storage },
  },
  actors: {
    /** The list a previous visit downloaded, or null; the app reads and validates its cache. */
    readCachedList: fromPromise<Catalogue | null, { storage: Storage }>(async () => null),
    /** Downloads the list, sending the version held; answers `held` itself when it is current. */
    fetchCatalogue: fromPromise<Catalogue, { held: Catalogue | null }>(async () => {
      throw new Error('The fetchCatalogue actor is not provided');
    }),
    loadBundledList: fromPromise<Catalogue, { path: string }>(async () => {
      throw new Error('The loadBundledList actor is not provided');
    }),
    loadCompanionLists: fromPromise<CompanionLists, void>(async () => {
      throw new Error('The loadCompanionLists actor is not provided');
    }),
    /**
     * Goes to landing before a refresh (specification §2), through the app's leave guard: answers
     * false when the person chose to stay with unsaved work, and then nothing is refreshed.
     */
    leaveForLanding: fromPromise<boolean, void>(async () => true),
  },
  actions: {
    /** Injected by the app: logs the download failure (the error is also in the context). */
    logDownloadError: (_, _params: { message: string }) => {},
    storeHeld: assign((_, list: Catalogue | null) =>
      list ? { listVersion: list.listVersion, models: list.devicesList } : {},
    ),
    storeDownloaded: assign((_, list: Catalogue) => ({
      listVersion: list.listVersion,
      models: list.devicesList,
      error: null,
      fallbackFailed: false,
    })),
    storeFallback: assign((_, list: Catalogue) => ({
      listVersion: -1,
      models: list.devicesList,
      fallbackFailed: false,
    })),
    recordError: assign((_, { error }: { error: unknown }) => ({
      listVersion: -1,
      error: catalogueErrorMessage(error),
    })),
    recordFallbackError: assign(({ context }, { error }: { error: unknown }) => ({
      error: `${context.error ?? ''} Bundled list: ${errorMessage(error)}`.trim(),
      fallbackFailed: true,
    })),
    storeCompanions: assign((_, lists: CompanionLists) => ({
      e1Models: lists.e1Catalogue.devicesList,
      convertList: lists.convertList,
      companionError: null,
    })),
    recordCompanionError: assign((_, { error }: { error: unknown }) => ({
      companionError: errorMessage(error),
    })),
    cache: ({ context }, { key, value }: { key: string; value: unknown }) =>
      context.storage.setItem(key, JSON.stringify(value)),
    startRefresh: assign(({ context }) => ({ refreshFrom: context.listVersion })),
    recordRefresh: assign(({ context }) => ({
      refreshFrom: null,
      lastRefresh: {
        outcome:
          context.listVersion < 0
            ? ('fallback' as const)
            : context.listVersion === context.refreshFrom
              ? ('unchanged' as const)
              : ('updated' as const),
        version: context.listVersion,
        at: Date.now(),
      },
    })),
  },
  delays: { refreshCooldown: REFRESH_COOLDOWN_MS },
});

/** The list the machine holds, as the download sends it: none after a fallback (version -1). */
const heldList = (context: CatalogueContext): Catalogue | null =>
  context.models && context.listVersion >= 0
    ? { listVersion: context.listVersion, devicesList: context.models }
    : null;

/**
 * One load: (at start) the cached list, then the download sending the version held; on failure
 * the bundled list; then the E1 and convert lists. Ends in `done`.
 */
const loadSteps = (initial: 'cache' | 'remote') =>
  catalogueSetup.createStateConfig({
    initial,
    states: {
      cache: {
        invoke: {
          src: 'readCachedList',
          input: ({ context }) => ({ storage: context.storage }),
          onDone: { target: 'remote', actions: { type: 'storeHeld', params: ({ event }) => event.output } },
          onError: 'remote',
        },
      },
      remote: {
        invoke: {
          src: 'fetchCatalogue',
          input: ({ context }) => ({ held: heldList(context) }),
          onDone: {
            target: 'companions',
            actions: [
              { type: 'storeDownloaded', params: ({ event }) => event.output },
              {
                type: 'cache',
                params: ({ event }) => ({ key: CACHE_KEYS.catalogue, value: event.output }),
              },
            ],
          },
          onError: {
            target: 'fallback',
            actions: [
              { type: 'recordError', params: ({ event }) => ({ error: event.error }) },
              { type: 'logDownloadError', params: ({ context }) => ({ message: context.error ?? '' }) },
            ],
          },
        },
      },
      fallback: {
        invoke: {
          src: 'loadBundledList',
          input: { path: BUNDLED_CATALOGUE },
          onDone: {
            target: 'companions',
            actions: { type: 'storeFallback', params: ({ event }) => event.output },
          },
          onError: {
            target: 'companions',
            actions: { type: 'recordFallbackError', params: ({ event }) => ({ error: event.error }) },
          },
        },
      },
      companions: {
        invoke: {
          src: 'loadCompanionLists',
          onDone: {
            target: 'done',
            actions: [
              { type: 'storeCompanions', params: ({ event }) => event.output },
              {
                type: 'cache',
                params: ({ event }) => ({
                  key: CACHE_KEYS.e1Catalogue,
                  value: event.output.e1Catalogue,
                }),
              },
              {
                type: 'cache',
                params: ({ event }) => ({ key: CACHE_KEYS.convertList, value: event.output.convertList }),
              },
            ],
          },
          onError: {
            target: 'done',
            actions: { type: 'recordCompanionError', params: ({ event }) => ({ error: event.error }) },
          },
        },
      },
      done: { type: 'final' },
    },
  });

/**
 * The device catalogue, which the specification calls the devices list (§7, §8): the list
 * cached by the last visit is held first; the download sends Basic auth and the held version as `list-version` (-1 when none), and the
 * server answers "unchanged" when it is current. On any failure version -1, the error and the
 * bundled list; then the E1 and convert lists. `refresh` first goes to landing (through the
 * app's leave guard: a person who chooses to stay with unsaved work stops the refresh there),
 * reloads, records what it found (`lastRefresh`: up to date, updated, or the bundled copy), then
 * waits 20 s before it can be sent again. Actors do the I/O (`readCachedList`, `fetchCatalogue`,
 * `loadBundledList`, `loadCompanionLists`) and the navigation (`leaveForLanding`).
 */
export const catalogueMachine = catalogueSetup.createMachine({
  id: 'catalogue',
  context: ({ input }) => ({
    storage: input.storage,
    listVersion: -1,
    models: null,
    e1Models: null,
    convertList: null,
    error: null,
    companionError: null,
    fallbackFailed: false,
    refreshFrom: null,
    lastRefresh: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      ...loadSteps('cache'),
      onDone: 'ready',
    },
    ready: {
      on: {
        'catalogue.load': 'loading',
        'catalogue.refresh': 'leaving',
      },
    },
    leaving: {
      invoke: {
        src: 'leaveForLanding',
        onDone: [{ guard: ({ event }) => event.output, target: 'refreshing' }, { target: 'ready' }],
        onError: 'ready',
      },
    },
    // A refresh is a load that ends in the cooldown instead of `ready`.
    refreshing: {
      entry: 'startRefresh',
      ...loadSteps('remote'),
      onDone: { target: 'cooldown', actions: 'recordRefresh' },
    },
    cooldown: {
      after: { refreshCooldown: 'ready' },
    },
  },
});
