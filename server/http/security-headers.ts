import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

type SecureHeadersOptions = NonNullable<Parameters<typeof secureHeaders>[0]>;

/**
 * Origins the Google Maps JavaScript API needs for the address control (script and its
 * follow-up modules, place look-ups, map tiles and icons, and its fonts). They join the policy
 * only when a maps key is configured: without a key the control cannot load the script at all.
 */
export const MAPS_ORIGINS = {
  script: ['https://maps.googleapis.com'],
  connect: ['https://maps.googleapis.com', 'https://places.googleapis.com'],
  img: ['https://maps.googleapis.com', 'https://maps.gstatic.com'],
  style: ['https://fonts.googleapis.com'],
  font: ['https://fonts.gstatic.com'],
} as const;

export interface SecurityHeaderOptions {
  /** Allow the Google Maps origins in the app's policy (set when `MAPS_API_KEY` is configured). */
  maps: boolean;
}

/**
 * The app's Content-Security-Policy. Scripts come from this origin only: no inline script and no
 * `eval`; `'wasm-unsafe-eval'` lets the device codec compile its WebAssembly and nothing else.
 * Styles allow `'unsafe-inline'` because Mantine writes its theme variables and responsive rules
 * (the AppShell breakpoints among them) into `<style>` elements at run time.
 */
export function appContentSecurityPolicy({ maps }: SecurityHeaderOptions) {
  const extra = (origins: readonly string[]) => (maps ? [...origins] : []);
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", "'wasm-unsafe-eval'", ...extra(MAPS_ORIGINS.script)],
    styleSrc: ["'self'", "'unsafe-inline'", ...extra(MAPS_ORIGINS.style)],
    imgSrc: ["'self'", 'data:', ...extra(MAPS_ORIGINS.img)],
    fontSrc: ["'self'", ...extra(MAPS_ORIGINS.font)],
    connectSrc: ["'self'", ...extra(MAPS_ORIGINS.connect)],
    workerSrc: ["'self'"],
    manifestSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  };
}

/** Service answers are data, never a page: nothing may load from them and nobody may frame them. */
const SERVICE_POLICY = { defaultSrc: ["'none'"], frameAncestors: ["'none'"] };

const common: Partial<SecureHeadersOptions> = {
  referrerPolicy: 'strict-origin-when-cross-origin',
  xFrameOptions: 'DENY',
  // Web Bluetooth is the point of the app, and the camera scans serial numbers when a device is
  // added to a site; everything else powerful is switched off.
  permissionsPolicy: {
    bluetooth: ['self'],
    camera: ['self'],
    microphone: [],
    geolocation: [],
    payment: [],
    usb: [],
    serial: [],
  },
};

/**
 * Security headers on every answer: the app's policy on pages and files, a locked-down policy on
 * the services (`/config`, `/monitoring`), and nosniff, Referrer-Policy, Permissions-Policy and
 * frame denial on both. Mount it first so that error and not-found answers carry them too.
 * @example app.use('*', securityHeaders({ maps: Boolean(env.MAPS_API_KEY) }))
 */
export function securityHeaders(options: SecurityHeaderOptions): MiddlewareHandler {
  const forApp = secureHeaders({ ...common, contentSecurityPolicy: appContentSecurityPolicy(options) });
  const forServices = secureHeaders({ ...common, contentSecurityPolicy: SERVICE_POLICY });
  const isService = (path: string) => /^\/(config|monitoring)(\/|$)/.test(path);
  return (c, next) => (isService(c.req.path) ? forServices(c, next) : forApp(c, next));
}
