// zod/mini: the app validates this before its first render, so only the checks used here ship.
import * as z from 'zod/mini';

const text = () => z.string().check(z.minLength(1));

/**
 * Runtime configuration the app fetches from `/app-config.json` before it
 * starts. Base URLs and keys never live in the app's code: the server that
 * hosts the app answers them from its own environment, and any other
 * deployment of the same API can serve its own file.
 */
export const appConfigSchema = z.object({
  /** Base URL of the configuration service, e.g. `/config` or `https://config.example`. */
  configUrl: text(),
  /** Base URL of the monitoring service, e.g. `/monitoring`. */
  monitoringUrl: text(),
  /** Full URL of the devices-list endpoint. */
  devicesListUrl: text(),
  /** Value of the `api-key` header for configuration calls. */
  apiKey: text(),
  /** `user:password` for the devices list's Basic `Authorization` header. */
  linkKey: z.string().check(z.regex(/^[^:]+:.+$/, 'linkKey must be user:password')),
  /** Company domain whose staff see Site Manager and Remote Debugger, e.g. `fleet.example`. */
  companyDomain: text(),
  /** Maps key for the address control; null when maps are not configured. */
  mapsApiKey: z.nullable(text()),
});

export type AppConfig = z.infer<typeof appConfigSchema>;
