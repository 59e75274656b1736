import { expect } from 'vitest';
import { waitFor } from 'xstate';
import type { TestParam } from 'xstate/graph';
import { CatalogueDownloadError } from '../../machines/catalogue/catalogue-error.ts';
import {
  catalogueError,
  catalogueModels,
  isLoading,
  listVersion,
} from '../../machines/catalogue/catalogue-selectors.ts';
import { sampleConvertList, sampleList, startCatalogue } from './catalogue-harness.ts';

// biome-ignore lint/suspicious/noExplicitAny: TestParam is generic over the model's snapshot and events
type Params = TestParam<any, any>;

/** Events and state checks that run one path of `catalogueModel` against the real machine. */
export function catalogueModelDriver(): Params {
  const h = startCatalogue();
  const snap = () => h.actor.getSnapshot();
  const canRefresh = () => snap().can({ type: 'catalogue.refresh' });
  const finishCompanions = async (answer: 'ok' | 'fail' = 'ok') => {
    await h.started(h.companions);
    if (answer === 'ok') {
      h.companions.last().resolve({ e1Catalogue: sampleList(3, 'E1-40'), convertList: sampleConvertList });
    } else {
      h.companions.last().reject(new Error('HTTP 503'));
    }
    await h.loaded();
  };
  const withoutCompanions = () => {
    downloaded();
    expect(snap().context.companionError).toBeTruthy();
  };
  const nothing = () => {
    expect(isLoading(snap())).toBe(false);
    expect(listVersion(snap())).toBe(-1);
    expect(catalogueError(snap())).toMatch(/^ERROR getting Devices List\. \{"status":502/);
    expect(snap().context.fallbackFailed).toBe(true);
  };
  const downloaded = () => {
    expect(isLoading(snap())).toBe(false);
    expect(listVersion(snap())).toBe(7);
    expect(catalogueError(snap())).toBeNull();
    expect(Object.keys(catalogueModels(snap()) ?? {})).toEqual(['HX-5000']);
  };
  const fellBack = () => {
    expect(isLoading(snap())).toBe(false);
    expect(listVersion(snap())).toBe(-1);
    expect(catalogueError(snap())).toMatch(/^ERROR getting Devices List\. \{"status":502/);
    expect(Object.keys(catalogueModels(snap()) ?? {})).toEqual(['BX-10']);
  };
  const loading = async () => {
    // At start the cached list is read first: the download begins right after.
    await h.started(h.download);
    expect(isLoading(snap())).toBe(true);
    expect(canRefresh()).toBe(false);
    expect(h.download.pending()).toHaveLength(1);
  };

  return {
    events: {
      'download.ok': async () => {
        await h.started(h.download);
        h.download.last().resolve(sampleList(7));
        await finishCompanions();
      },
      'download.fail': async () => {
        await h.started(h.download);
        h.download
          .last()
          .reject(new CatalogueDownloadError({ status: 502, statusText: 'Bad Gateway', body: '' }));
        await h.started(h.bundled);
      },
      'companions.fail': async () => {
        await h.started(h.download);
        h.download.last().resolve(sampleList(7));
        await finishCompanions('fail');
      },
      'bundled.fail': async () => {
        h.bundled.last().reject(new Error('HTTP 404'));
        await finishCompanions();
      },
      'bundled.ok': async () => {
        h.bundled.last().resolve(sampleList(7, 'BX-10'));
        await finishCompanions();
      },
      'catalogue.refresh': () => h.actor.send({ type: 'catalogue.refresh' }),
      // The way to landing fails: the refresh stops there, the catalogue as it was.
      'landing.fails': async () => {
        const downloads = h.download.calls.length;
        h.stays.push('fails');
        h.actor.send({ type: 'catalogue.refresh' });
        await waitFor(h.actor, (s) => s.matches('ready'));
        expect(h.download.calls).toHaveLength(downloads);
      },
      // Unsaved work on the screen: the person answers "Stay", and nothing is downloaded.
      'catalogue.refreshStays': async () => {
        const downloads = h.download.calls.length;
        h.stays.push(true);
        h.actor.send({ type: 'catalogue.refresh' });
        await waitFor(h.actor, (s) => s.matches('ready'));
        expect(h.download.calls).toHaveLength(downloads);
      },
      'catalogue.load': () => h.actor.send({ type: 'catalogue.load' }),
      // Specification §9: 20000 ms, pinned here rather than read from the machine.
      'cooldown.elapsed': () => h.clock.increment(20_000),
    },
    states: {
      loading,
      fallback: () => {
        expect(isLoading(snap())).toBe(true);
        expect(listVersion(snap())).toBe(-1);
        expect(h.bundled.pending()).toHaveLength(1);
      },
      ready: () => {
        downloaded();
        expect(canRefresh()).toBe(true);
      },
      readyFallback: () => {
        fellBack();
        expect(canRefresh()).toBe(true);
      },
      refreshing: async () => {
        await loading();
        expect(h.navigations.at(-1)).toBe('/landing');
      },
      refreshFallback: () => {
        expect(isLoading(snap())).toBe(true);
        expect(canRefresh()).toBe(false);
      },
      cooldown: () => {
        downloaded();
        expect(canRefresh()).toBe(false);
      },
      readyWithoutCompanions: () => {
        withoutCompanions();
        expect(canRefresh()).toBe(true);
      },
      cooldownWithoutCompanions: () => {
        withoutCompanions();
        expect(canRefresh()).toBe(false);
      },
      nothingToShow: () => {
        nothing();
        expect(canRefresh()).toBe(true);
      },
      cooldownNothing: () => {
        nothing();
        expect(canRefresh()).toBe(false);
      },
      cooldownFallback: () => {
        fellBack();
        expect(canRefresh()).toBe(false);
      },
    },
  };
}
