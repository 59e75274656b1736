import { fromPromise } from 'xstate';
import type { AppConfig } from '../../../contracts/app-config.ts';
import type { Catalogue, ConvertList } from '../../../contracts/catalogue.ts';
import { errorMessage } from '../../../contracts/error-message.ts';
import { CatalogueDownloadError } from '../../../machines/catalogue/catalogue-error.ts';
import {
  BUNDLED_CONVERT_LIST,
  BUNDLED_E1_CATALOGUE,
  type CompanionLists,
} from '../../../machines/catalogue/catalogue-machine.ts';
import { CACHE_KEYS } from '../../../machines/storage-keys.ts';
import { whenIdle } from '../../when-idle.ts';

/** Base64 of a UTF-8 string (`btoa` alone rejects characters above U+00FF). */
export function base64Utf8(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * The list schemas, and zod with them, are not part of the sign-in screen's scripts: they start
 * loading once the first screen is up and are awaited only where a list is checked, so the
 * catalogue (read from the cache first) loads after the first screen too.
 */
let schemasLoading: Promise<typeof import('../../../contracts/catalogue.ts')> | undefined;
function listSchemas() {
  if (!schemasLoading) {
    schemasLoading = whenIdle().then(() => import('../../../contracts/catalogue.ts'));
    schemasLoading.catch(() => {
      schemasLoading = undefined;
    });
  }
  return schemasLoading;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The server's answer when the version sent is current: no body, the held list stays. */
export const LIST_UNCHANGED = 304;

/**
 * GET of the catalogue, the specification's devices list (§7): Basic `Authorization` from the link key and the
 * `list-version` header with the version held (-1 when none). A 200 with a valid list is a new
 * list; 304 means the held list is current and answers it. Nothing else counts.
 *
 * @example const list = await downloadCatalogue(config, fetch, heldList);
 * @throws CatalogueDownloadError with the serialized response (or network failure) otherwise
 */
export async function downloadCatalogue(
  config: AppConfig,
  fetchImpl: typeof fetch,
  held: Catalogue | null,
): Promise<Catalogue> {
  const listVersion = held?.listVersion ?? -1;
  const schemas = listSchemas();
  let response: Response;
  try {
    response = await fetchImpl(config.devicesListUrl, {
      method: 'GET',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Basic ${base64Utf8(config.linkKey)}`,
        'list-version': String(listVersion),
      },
    });
  } catch (error) {
    throw new CatalogueDownloadError({ message: errorMessage(error) });
  }
  if (response.status === LIST_UNCHANGED && held) return held;
  const body = await readBody(response);
  if (response.status !== 200) {
    throw new CatalogueDownloadError({ status: response.status, statusText: response.statusText, body });
  }
  const { catalogueSchema } = await schemas;
  const parsed = catalogueSchema.safeParse(body);
  if (!parsed.success) {
    throw new CatalogueDownloadError({ status: 200, invalid: parsed.error.issues.map((i) => i.message) });
  }
  return parsed.data;
}

/** Reads and validates a bundled JSON asset; the error names the file and the first problem. */
async function readAsset<T>(
  fetchImpl: typeof fetch,
  url: string,
  schema: {
    safeParse(v: unknown): { success: true; data: T } | { success: false; error: { message: string } };
  },
): Promise<T> {
  const response = await fetchImpl(url, { headers: { 'Content-Type': 'application/json' } });
  if (!response.ok) throw new Error(`${url} could not be read (HTTP ${response.status})`);
  const parsed = schema.safeParse(await readBody(response));
  if (!parsed.success) throw new Error(`${url} is not valid: ${parsed.error.message}`);
  return parsed.data;
}

/**
 * The list the last download left in the cache, or null when there is none or it no longer
 * passes the contract (a cache written by an older version of the app).
 */
export async function readCachedList(storage: Storage): Promise<Catalogue | null> {
  const { catalogueSchema } = await listSchemas();
  try {
    const parsed = catalogueSchema.safeParse(JSON.parse(storage.getItem(CACHE_KEYS.catalogue) ?? 'null'));
    return parsed.success && parsed.data.listVersion >= 0 ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The catalogue machine's I/O over `fetch`. `assetBaseUrl` prefixes the bundled files
 * (empty in the browser: they are served beside the app).
 */
export function createCatalogueActors(config: AppConfig, fetchImpl: typeof fetch, assetBaseUrl = '') {
  listSchemas().catch(() => undefined);
  const asset = (path: string) => `${assetBaseUrl.replace(/\/+$/, '')}${path}`;
  return {
    readCachedList: fromPromise<Catalogue | null, { storage: Storage }>(async ({ input }) =>
      readCachedList(input.storage),
    ),
    fetchCatalogue: fromPromise<Catalogue, { held: Catalogue | null }>(({ input }) =>
      downloadCatalogue(config, fetchImpl, input.held),
    ),
    loadBundledList: fromPromise<Catalogue, { path: string }>(async ({ input }) =>
      readAsset(fetchImpl, asset(input.path), (await listSchemas()).catalogueSchema),
    ),
    loadCompanionLists: fromPromise<CompanionLists, void>(async () => {
      const { convertListSchema, catalogueSchema } = await listSchemas();
      const [e1Catalogue, convertList] = await Promise.all([
        readAsset(fetchImpl, asset(BUNDLED_E1_CATALOGUE), catalogueSchema),
        readAsset<ConvertList>(fetchImpl, asset(BUNDLED_CONVERT_LIST), convertListSchema),
      ]);
      return { e1Catalogue, convertList };
    }),
  };
}
