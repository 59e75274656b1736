/**
 * What each list sorts by on the server (`?sort=key`, or `?sort=-key` descending). Plain
 * constants without zod, so that the app's route files, which stay in the first screen's bundle,
 * can read them; the query schemas in `sites.ts`, `devices.ts` and `users.ts` are built from them.
 */
export const SITE_SORT_KEYS = ['name', 'address', 'locality', 'state', 'id'] as const;
export type SiteSortKey = (typeof SITE_SORT_KEYS)[number];

export const DEVICE_SORT_KEYS = ['serial', 'model', 'name', 'site', 'installed'] as const;
export type DeviceSortKey = (typeof DEVICE_SORT_KEYS)[number];

export const USER_SORT_KEYS = ['name', 'email', 'role', 'id'] as const;
export type UserSortKey = (typeof USER_SORT_KEYS)[number];
