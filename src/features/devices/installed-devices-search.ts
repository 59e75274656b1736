// Apart from the loader: the route tree (part of the sign-in screen's scripts) reads this one.

import { DEVICE_SORT_KEYS } from '../../../contracts/list-sort-keys.ts';
import { type ListSearch, listSearchValidator } from '../../components/lists/list-search.ts';

/** Which devices a state filter keeps: connected now, not, never heard from, or with an open alarm. */
export type DeviceStateFilter = 'online' | 'offline' | 'never' | 'alarm';
const STATES: readonly DeviceStateFilter[] = ['online', 'offline', 'never', 'alarm'];

/** The devices list's URL state: the list's own, plus `?state=` (and `?siteId=` with it) from Home. */
export interface InstalledDevicesSearch extends ListSearch {
  state?: DeviceStateFilter;
  siteId?: number;
}

const listSearch = listSearchValidator(DEVICE_SORT_KEYS);

/** `validateSearch` of `/devices-list`: an unknown state or a bad site id is dropped. */
export function installedDevicesSearch(search: Record<string, unknown>): InstalledDevicesSearch {
  const result: InstalledDevicesSearch = listSearch(search);
  if (typeof search.state === 'string' && STATES.includes(search.state as DeviceStateFilter)) {
    result.state = search.state as DeviceStateFilter;
    const siteId = Number(search.siteId);
    if (Number.isInteger(siteId) && siteId >= 1 && siteId <= 2_147_483_647) result.siteId = siteId;
  }
  return result;
}
