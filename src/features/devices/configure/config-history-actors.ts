import { fromCallback, fromPromise } from 'xstate';
import {
  type ConfigHistoryPage,
  type ConfigHistoryRecord,
  configHistoryPageSchema,
} from '../../../../contracts/config-history.ts';
import { errorMessage } from '../../../../contracts/error-message.ts';
import type {
  ConfigHistoryEvent,
  HistoryLoad,
  HistoryWrite,
  OlderPage,
} from '../../../../machines/ble/config-history-machine.ts';
import type { ApiClient } from '../../../api/api-client.ts';
import { HistoryQueue } from './history-queue.ts';

const historyPath = (serial: string) => `/fleet/devices/${encodeURIComponent(serial)}/config-history`;

/** One page of a device's history (`GET …/config-history?cursor=`), newest received first. */
async function readPage(configApi: ApiClient, serial: string, cursor?: string): Promise<ConfigHistoryPage> {
  return configHistoryPageSchema.parse(
    await configApi(historyPath(serial), { query: cursor ? { cursor } : {} }),
  );
}

/**
 * The queue that carries verified writes to the configuration service (one per API client, so
 * every panel of the app shares its IndexedDB outbox).
 * @example const queue = historyQueueFor(runtime.configApi);
 */
export function historyQueueFor(configApi: ApiClient): HistoryQueue {
  let queue = queues.get(configApi);
  if (!queue) {
    queue = new HistoryQueue((serial, record: ConfigHistoryRecord) =>
      configApi(historyPath(serial), { method: 'POST', body: record }).then(() => undefined),
    );
    queues.set(configApi, queue);
  }
  return queue;
}
const queues = new WeakMap<ApiClient, HistoryQueue>();

/**
 * The configuration-history machine's actors over the configuration service and the offline queue.
 * @example configHistoryMachine.provide({ actors: createConfigHistoryActors(configApi, queue, window) })
 */
export function createConfigHistoryActors(
  configApi: ApiClient,
  queue: HistoryQueue,
  target: Pick<Window, 'addEventListener' | 'removeEventListener'>,
) {
  return {
    loadHistory: fromPromise<HistoryLoad, { serial: string }>(async ({ input }) => {
      // What waited is sent first, so a record that just got through is not shown twice.
      await queue.flush();
      const waiting = (await queue.pending())
        .filter((q) => q.serialNumber === input.serial)
        .map((q) => q.record);
      try {
        const page = await readPage(configApi, input.serial);
        return { entries: page.items, nextCursor: page.nextCursor, waiting, error: null };
      } catch (error) {
        const message = errorMessage(error);
        return { entries: null, nextCursor: null, waiting, error: message };
      }
    }),
    loadOlder: fromPromise<OlderPage, { serial: string; cursor: string }>(async ({ input }) => {
      const page = await readPage(configApi, input.serial, input.cursor);
      return { entries: page.items, nextCursor: page.nextCursor };
    }),
    recordWrite: fromPromise<unknown, HistoryWrite>(({ input }) => queue.record(input)),
    watchOnline: fromCallback<ConfigHistoryEvent>(({ sendBack }) => {
      const online = () => sendBack({ type: 'history.refresh' });
      target.addEventListener('online', online);
      return () => target.removeEventListener('online', online);
    }),
  };
}
