import { assign, fromPromise, setup } from 'xstate';
import type { ConvertList, DevicesList } from '../../contracts/devices-list.ts';
import { CACHE_KEYS } from '../storage-keys.ts';
import { devicesListErrorMessage } from './devices-list-error.ts';

/** The refresh button stays disabled this long after a refresh (specification §9). */
export const REFRESH_COOLDOWN_MS = 20_000;
/** Bundled fallback used when the download fails (specification §7). */
export const BUNDLED_DEVICES_LIST = '/devices-list.json';
/** Bundled list of E1 devices. */
export const BUNDLED_E1_DEVICES_LIST = '/devices-list-e1.json';
/** Bundled convert list: product key → `{product}-to-form.json`. */
export const BUNDLED_CONVERT_LIST = '/convert-list.json';

export interface DevicesListContext {
  storage: Storage;
  /** Version of the downloaded list; -1 before a download and after a failed one. */
  listVersion: number;
  devicesList: DevicesList['devicesList'] | null;
  e1DevicesList: DevicesList['devicesList'] | null;
  convertList: ConvertList | null;
  /** `ERROR getting Devices List.` and the serialized response, after a failed download. */
  error: string | null;
  /** Why the E1 list or the convert list could not be read, if it could not. */
  companionError: string | null;
  /** The download failed and the bundled list could not be read either. */
  fallbackFailed: boolean;
}

export type DevicesListEvent = { type: 'devicesList.load' } | { type: 'devicesList.refresh' };

export interface CompanionLists {
  e1DevicesList: DevicesList;
  convertList: ConvertList;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const devicesListSetup = setup({
  types: {
    context: {} as DevicesListContext,
    events: {} as DevicesListEvent,
    input: {} as { storage: Storage },
  },
  actors: {
    /** The list a previous visit downloaded, or null; the app reads and validates its cache. */
    readCachedList: fromPromise<DevicesList | null, { storage: Storage }>(async () => null),
    /** Downloads the list, sending the version held; answers `held` itself when it is current. */
    fetchDevicesList: fromPromise<DevicesList, { held: DevicesList | null }>(async () => {
      throw new Error('The fetchDevicesList actor is not provided');
    }),
    loadBundledList: fromPromise<DevicesList, { path: string }>(async () => {
      throw new Error('The loadBundledList actor is not provided');
    }),
    loadCompanionLists: fromPromise<CompanionLists, void>(async () => {
      throw new Error('The loadCompanionLists actor is not provided');
    }),
  },
  actions: {
    /** Injected by the app: `navigate('/landing', { replace: false })`. */
    navigateToLanding: () => {},
    /** Injected by the app: logs the download failure (the error is also in the context). */
    logDownloadError: (_, _params: { message: string }) => {},
    storeHeld: assign((_, list: DevicesList | null) =>
      list ? { listVersion: list.listVersion, devicesList: list.devicesList } : {},
    ),
    storeDownloaded: assign((_, list: DevicesList) => ({
      listVersion: list.listVersion,
      devicesList: list.devicesList,
      error: null,
      fallbackFailed: false,
    })),
    storeFallback: assign((_, list: DevicesList) => ({
      listVersion: -1,
      devicesList: list.devicesList,
      fallbackFailed: false,
    })),
    recordError: assign((_, { error }: { error: unknown }) => ({
      listVersion: -1,
      error: devicesListErrorMessage(error),
    })),
    recordFallbackError: assign(({ context }, { error }: { error: unknown }) => ({
      error: `${context.error ?? ''} Bundled list: ${messageOf(error)}`.trim(),
      fallbackFailed: true,
    })),
    storeCompanions: assign((_, lists: CompanionLists) => ({
      e1DevicesList: lists.e1DevicesList.devicesList,
      convertList: lists.convertList,
      companionError: null,
    })),
    recordCompanionError: assign((_, { error }: { error: unknown }) => ({
      companionError: messageOf(error),
    })),
    cache: ({ context }, { key, value }: { key: string; value: unknown }) =>
      context.storage.setItem(key, JSON.stringify(value)),
  },
  delays: { refreshCooldown: REFRESH_COOLDOWN_MS },
});

/** The list the machine holds, as the download sends it: none after a fallback (version -1). */
const heldList = (context: DevicesListContext): DevicesList | null =>
  context.devicesList && context.listVersion >= 0
    ? { listVersion: context.listVersion, devicesList: context.devicesList }
    : null;

/**
 * One load: (at start) the cached list, then the download sending the version held; on failure
 * the bundled list; then the E1 and convert lists. Ends in `done`.
 */
const loadSteps = (initial: 'cache' | 'remote') =>
  devicesListSetup.createStateConfig({
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
          src: 'fetchDevicesList',
          input: ({ context }) => ({ held: heldList(context) }),
          onDone: {
            target: 'companions',
            actions: [
              { type: 'storeDownloaded', params: ({ event }) => event.output },
              {
                type: 'cache',
                params: ({ event }) => ({ key: CACHE_KEYS.devicesList, value: event.output }),
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
          input: { path: BUNDLED_DEVICES_LIST },
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
                  key: CACHE_KEYS.e1DevicesList,
                  value: event.output.e1DevicesList,
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
 * The devices list (specification §7, §8): the list cached by the last visit is held first; the
 * download sends Basic auth and the held version as `list-version` (-1 when none), and the
 * server answers "unchanged" when it is current. On any failure version -1, the error and the
 * bundled list; then the E1 and convert lists. `refresh`
 * first goes to landing, reloads, then waits 20 s before it can be sent again.
 * Actors do the I/O (`readCachedList`, `fetchDevicesList`, `loadBundledList`, `loadCompanionLists`); navigation is
 * the injected action `navigateToLanding`.
 */
export const devicesListMachine = devicesListSetup.createMachine({
  id: 'devicesList',
  context: ({ input }) => ({
    storage: input.storage,
    listVersion: -1,
    devicesList: null,
    e1DevicesList: null,
    convertList: null,
    error: null,
    companionError: null,
    fallbackFailed: false,
  }),
  initial: 'loading',
  states: {
    loading: {
      ...loadSteps('cache'),
      onDone: 'ready',
    },
    ready: {
      on: {
        'devicesList.load': 'loading',
        'devicesList.refresh': { target: 'refreshing', actions: 'navigateToLanding' },
      },
    },
    // A refresh is a load that ends in the cooldown instead of `ready`.
    refreshing: {
      ...loadSteps('remote'),
      onDone: 'cooldown',
    },
    cooldown: {
      after: { refreshCooldown: 'ready' },
    },
  },
});
