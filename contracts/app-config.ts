// valibot rather than zod: the app checks this before its first render, and valibot's
// per-function modules ship only the few checks used here (zod's core would weigh about 16 KB
// gzipped on the sign-in screen, the first thing a phone loads).
import * as v from 'valibot';

const text = () => v.pipe(v.string(), v.minLength(1));

/**
 * Runtime configuration the app fetches from `/app-config.json` before it
 * starts. Base URLs and keys never live in the app's code: the server that
 * hosts the app answers them from its own environment, and any other
 * deployment of the same API can serve its own file.
 */
export const appConfigSchema = v.object({
  /** Base URL of the configuration service, e.g. `/config` or `https://config.example`. */
  configUrl: text(),
  /** Base URL of the monitoring service, e.g. `/monitoring`. */
  monitoringUrl: text(),
  /** Full URL of the devices-list endpoint. */
  devicesListUrl: text(),
  /** Value of the `api-key` header for configuration calls. */
  apiKey: text(),
  /** `user:password` for the devices list's Basic `Authorization` header. */
  linkKey: v.pipe(v.string(), v.regex(/^[^:]+:.+$/, 'linkKey must be user:password')),
  /** Company domain whose staff see Site Manager and Remote Debugger, e.g. `fleet.example`. */
  companyDomain: text(),
  /** Maps key for the address control; null when maps are not configured. */
  mapsApiKey: v.nullable(text()),
});

export type AppConfig = v.InferOutput<typeof appConfigSchema>;
