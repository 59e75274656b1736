import * as v from 'valibot';
import { appConfigSchema } from '../../contracts/app-config.ts';

const CONFIG_PATH = '/app-config.json';
/** The last configuration this browser was given, for a start with no connection. */
const CONFIG_CACHE = 'fleet-app-config';

/** The configuration from the server, kept for later; with no connection, the kept copy. */
async function fetchConfig(): Promise<Response> {
  const canKeep = 'caches' in window;
  try {
    // A plain GET, exactly as index.html preloads it, so the browser uses the preloaded answer.
    const response = await fetch(CONFIG_PATH);
    if (response.ok && canKeep) {
      const copy = response.clone();
      caches
        .open(CONFIG_CACHE)
        .then((cache) => cache.put(CONFIG_PATH, copy))
        .catch(() => undefined);
    }
    return response;
  } catch (error) {
    const kept = canKeep ? await caches.match(CONFIG_PATH, { cacheName: CONFIG_CACHE }) : undefined;
    if (kept) return kept;
    throw error;
  }
}

// Base URLs and keys come from the server that hosts the app, so one build runs against any
// deployment of the API. Nothing renders until the configuration is known.
/**
 * The configuration the app runs with (base URLs and keys), from `/app-config.json`, checked.
 * @throws Error naming the failing field, or the HTTP status, when the file is missing or invalid
 */
export async function loadConfig() {
  const response = await fetchConfig();
  if (!response.ok) throw new Error(`${CONFIG_PATH} answered HTTP ${response.status}`);
  const parsed = v.safeParse(appConfigSchema, await response.json());
  if (!parsed.success) {
    const issue = parsed.issues[0];
    throw new Error(`${CONFIG_PATH} is invalid: ${v.getDotPath(issue) || 'value'}: ${issue.message}`);
  }
  return parsed.output;
}
