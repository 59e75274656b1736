/** Columns the devices list sorts by (`?sort=`); the route's validateSearch reads them. */
export const DEVICE_SORT_KEYS = ['serial', 'model', 'name', 'site', 'installed'] as const;
