/** Columns the sites list sorts by (`?sort=`); the route's validateSearch reads them. */
export const SITE_SORT_KEYS = ['name', 'address', 'locality', 'state', 'id'] as const;
