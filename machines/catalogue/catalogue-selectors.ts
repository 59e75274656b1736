import type { SnapshotFrom } from 'xstate';
import type { Catalogue } from '../../contracts/catalogue.ts';
import { type catalogueMachine, REFRESH_COOLDOWN_MS, type RefreshOutcome } from './catalogue-machine.ts';

export type CatalogueSnapshot = SnapshotFrom<typeof catalogueMachine>;

/** Version of the downloaded list; -1 before the first download and after a failed one. */
export const listVersion = (s: CatalogueSnapshot): number => s.context.listVersion;

/** Device models by id (downloaded, or the bundled fallback); null until the first load ends. */
export const catalogueModels = (s: CatalogueSnapshot): Catalogue['devicesList'] | null => s.context.models;

/** E1 device models by id; null until loaded. */
export const e1CatalogueModels = (s: CatalogueSnapshot): Catalogue['devicesList'] | null =>
  s.context.e1Models;

/** Product key → `{product}-to-form.json`; null until loaded. */
export const convertList = (s: CatalogueSnapshot) => s.context.convertList;

/** `ERROR getting Devices List.` and the serialized response after a failed download, else null. */
export const catalogueError = (s: CatalogueSnapshot): string | null => s.context.error;

/** The download failed and the bundled copy could not be read either. */
export const fallbackFailed = (s: CatalogueSnapshot): boolean => s.context.fallbackFailed;

/** True while the list loads or reloads. */
export const isLoading = (s: CatalogueSnapshot): boolean => s.matches('loading') || s.matches('refreshing');

/** What the last refresh found (up to date, updated, or the bundled copy), or null before one. */
export const lastRefresh = (s: CatalogueSnapshot): RefreshOutcome | null => s.context.lastRefresh;

/** While the refresh button waits out its 20 s: when it can be used again (ms since the epoch). */
export const refreshAvailableAt = (s: CatalogueSnapshot): number | null =>
  s.matches('cooldown') && s.context.lastRefresh ? s.context.lastRefresh.at + REFRESH_COOLDOWN_MS : null;

/** True while a refresh waits for the person to leave the screen (the leave guard may be asking). */
export const isLeavingForRefresh = (s: CatalogueSnapshot): boolean => s.matches('leaving');
