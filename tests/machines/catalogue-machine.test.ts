import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { CatalogueDownloadError } from '../../machines/catalogue/catalogue-error.ts';
import { BUNDLED_CATALOGUE } from '../../machines/catalogue/catalogue-machine.ts';
import {
  catalogueError,
  catalogueModels,
  fallbackFailed,
  isLoading,
  lastRefresh,
  listVersion,
  refreshAvailableAt,
} from '../../machines/catalogue/catalogue-selectors.ts';
import { CACHE_KEYS } from '../../machines/storage-keys.ts';
import { sampleConvertList, sampleList, startCatalogue } from './catalogue-harness.ts';

type Harness = ReturnType<typeof startCatalogue>;

/** Specification §9: the refresh button is disabled for 20000 ms (pinned, not the machine's constant). */
const SPECIFIED_COOLDOWN_MS = 20_000;

async function download(h: Harness, answer: (call: ReturnType<Harness['download']['last']>) => void) {
  await h.started(h.download);
  answer(h.download.last());
}

async function finishCompanions(h: Harness) {
  await h.started(h.companions);
  h.companions.last().resolve({ e1Catalogue: sampleList(3, 'E1-40'), convertList: sampleConvertList });
  return h.loaded();
}

async function loadedWith(version: number) {
  const h = startCatalogue();
  await download(h, (call) => call.resolve(sampleList(version)));
  await finishCompanions(h);
  return h;
}

describe('catalogue machine', () => {
  it('downloads on start holding nothing (list-version -1), then holds and caches the list', async () => {
    const h = startCatalogue();
    expect(isLoading(h.actor.getSnapshot())).toBe(true);
    await download(h, (call) => {
      expect(call.input).toEqual({ held: null });
      call.resolve(sampleList(7));
    });
    const s = await finishCompanions(h);
    expect(listVersion(s)).toBe(7);
    expect(Object.keys(catalogueModels(s) ?? {})).toEqual(['HX-5000']);
    expect(catalogueError(s)).toBeNull();
    expect(JSON.parse(h.storage.getItem(CACHE_KEYS.catalogue) ?? 'null')).toEqual(sampleList(7));
    expect(JSON.parse(h.storage.getItem(CACHE_KEYS.e1Catalogue) ?? 'null')).toEqual(sampleList(3, 'E1-40'));
    expect(JSON.parse(h.storage.getItem(CACHE_KEYS.convertList) ?? 'null')).toEqual(sampleConvertList);
  });

  it('holds the list an earlier visit cached and sends it with the download', async () => {
    const h = startCatalogue({ cached: sampleList(7) });
    await download(h, (call) => {
      expect(call.input).toEqual({ held: sampleList(7) });
      call.resolve(sampleList(7));
    });
    const s = await finishCompanions(h);
    expect(listVersion(s)).toBe(7);
  });

  it('ignores a cached list that no longer passes the contract', async () => {
    const h = startCatalogue({
      cached: { listVersion: 7, devicesList: { 'HX-5000': { name: 'old shape' } } },
    });
    await download(h, (call) => {
      expect(call.input).toEqual({ held: null });
      call.resolve(sampleList(7));
    });
    await finishCompanions(h);
  });

  it('falls back to the bundled list with version -1 and the serialized response on a failed download', async () => {
    const h = startCatalogue();
    await download(h, (call) =>
      call.reject(new CatalogueDownloadError({ status: 503, statusText: 'Service Unavailable', body: '' })),
    );
    await h.started(h.bundled);
    expect(h.bundled.last().input).toEqual({ path: BUNDLED_CATALOGUE });
    h.bundled.last().resolve(sampleList(7, 'BX-10'));
    const s = await finishCompanions(h);
    expect(listVersion(s)).toBe(-1);
    expect(Object.keys(catalogueModels(s) ?? {})).toEqual(['BX-10']);
    expect(fallbackFailed(s)).toBe(false);
    expect(catalogueError(s)).toBe(
      'ERROR getting Devices List. {"status":503,"statusText":"Service Unavailable","body":""}',
    );
    expect(h.storage.getItem(CACHE_KEYS.catalogue)).toBeNull();
  });

  it('says so when the bundled list fails too', async () => {
    const h = startCatalogue();
    await download(h, (call) => call.reject(new TypeError('fetch failed')));
    await h.started(h.bundled);
    h.bundled.last().reject(new Error('/devices-list.json could not be read (HTTP 404)'));
    const s = await finishCompanions(h);
    expect(fallbackFailed(s)).toBe(true);
    expect(listVersion(s)).toBe(-1);
    expect(catalogueError(s)).toBe(
      'ERROR getting Devices List. {"message":"fetch failed"} Bundled list: /devices-list.json could not be read (HTTP 404)',
    );
  });

  it('reports a network failure the same way', async () => {
    const h = startCatalogue();
    await download(h, (call) => call.reject(new TypeError('fetch failed')));
    const s = await h.started(h.bundled);
    expect(catalogueError(s)).toBe('ERROR getting Devices List. {"message":"fetch failed"}');
    expect(listVersion(s)).toBe(-1);
  });

  it('sends the version it holds on a refresh, and sends none after a fallback', async () => {
    const h = await loadedWith(7);
    h.actor.send({ type: 'catalogue.refresh' });
    await download(h, (call) => {
      expect(call.input).toEqual({ held: sampleList(7) });
      call.reject(new TypeError('fetch failed'));
    });
    await h.started(h.bundled);
    h.bundled.last().resolve(sampleList(7, 'BX-10'));
    await finishCompanions(h);
    h.clock.increment(SPECIFIED_COOLDOWN_MS);
    h.actor.send({ type: 'catalogue.refresh' });
    await download(h, (call) => expect(call.input).toEqual({ held: null }));
  });

  it('refresh goes to landing, reloads, and cannot be sent again for 20 000 ms', async () => {
    const h = await loadedWith(7);
    expect(h.actor.getSnapshot().can({ type: 'catalogue.refresh' })).toBe(true);
    h.actor.send({ type: 'catalogue.refresh' });
    expect(h.navigations).toEqual(['/landing']);
    await waitFor(h.actor, isLoading);
    await download(h, (call) => call.resolve(sampleList(8)));
    expect(h.download.calls).toHaveLength(2);
    const s = await finishCompanions(h);
    expect(listVersion(s)).toBe(8);
    expect(lastRefresh(s)).toMatchObject({ outcome: 'updated', version: 8 });
    expect(refreshAvailableAt(s)).toBe((lastRefresh(s)?.at ?? 0) + SPECIFIED_COOLDOWN_MS);
    expect(s.can({ type: 'catalogue.refresh' })).toBe(false);
    h.actor.send({ type: 'catalogue.refresh' });
    expect(h.download.calls).toHaveLength(2);
    h.clock.increment(SPECIFIED_COOLDOWN_MS - 1);
    expect(h.actor.getSnapshot().can({ type: 'catalogue.refresh' })).toBe(false);
    h.clock.increment(1);
    expect(h.actor.getSnapshot().can({ type: 'catalogue.refresh' })).toBe(true);
    expect(refreshAvailableAt(h.actor.getSnapshot())).toBeNull();
  });

  it('says whether a refresh found the list up to date, and that the bundled copy is used when it got no answer', async () => {
    const h = await loadedWith(7);
    h.actor.send({ type: 'catalogue.refresh' });
    await download(h, (call) => call.resolve(sampleList(7)));
    expect(lastRefresh(await finishCompanions(h))).toMatchObject({ outcome: 'unchanged', version: 7 });
    h.clock.increment(SPECIFIED_COOLDOWN_MS);
    h.actor.send({ type: 'catalogue.refresh' });
    await download(h, (call) => call.reject(new TypeError('fetch failed')));
    await h.started(h.bundled);
    h.bundled.last().resolve(sampleList(7));
    expect(lastRefresh(await finishCompanions(h))).toMatchObject({ outcome: 'fallback', version: -1 });
  });

  it('refreshes nothing when the person chooses to stay on a screen with unsaved work', async () => {
    const h = await loadedWith(7);
    h.stays.push(true);
    h.actor.send({ type: 'catalogue.refresh' });
    const s = await waitFor(h.actor, (x) => x.matches('ready'));
    expect(h.download.calls).toHaveLength(1);
    expect(lastRefresh(s)).toBeNull();
    expect(s.can({ type: 'catalogue.refresh' })).toBe(true);
  });

  it('cannot be refreshed while the first load runs', () => {
    const h = startCatalogue();
    expect(h.actor.getSnapshot().can({ type: 'catalogue.refresh' })).toBe(false);
  });

  it('keeps the main list when the E1 or convert list cannot be read, and says which', async () => {
    const h = startCatalogue();
    await download(h, (call) => call.resolve(sampleList(7)));
    await h.started(h.companions);
    h.companions.last().reject(new Error('/convert-list.json could not be read (HTTP 404)'));
    const s = await h.loaded();
    expect(listVersion(s)).toBe(7);
    expect(s.context.companionError).toBe('/convert-list.json could not be read (HTTP 404)');
  });
});
