import { z } from 'zod';

/**
 * Runtime configuration the app fetches from `/app-config.json` before it
 * starts. Base URLs and keys never live in the app's code: the server that
 * hosts the app answers them from its own environment, and any other
 * deployment of the same API can serve its own file.
 */
export const appConfigSchema = z.object({
  /** Base URL of the configuration service, e.g. `/config` or `https://config.example`. */
  configUrl: z.string().min(1),
  /** Base URL of the monitoring service, e.g. `/monitoring`. */
  monitoringUrl: z.string().min(1),
  /** Full URL of the devices-list endpoint. */
  devicesListUrl: z.string().min(1),
  /** Value of the `api-key` header for configuration calls. */
  apiKey: z.string().min(1),
  /** `user:password` for the devices list's Basic `Authorization` header. */
  linkKey: z.string().regex(/^[^:]+:.+$/, 'linkKey must be user:password'),
  /** Company domain whose staff see Site Manager and Remote Debugger, e.g. `fleet.example`. */
  companyDomain: z.string().min(1),
  /** Maps key for the address control; null when maps are not configured. */
  mapsApiKey: z.string().min(1).nullable(),
});

export type AppConfig = z.infer<typeof appConfigSchema>;
