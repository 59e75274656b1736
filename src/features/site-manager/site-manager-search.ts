import { SITE_SORT_KEYS } from '../../../contracts/list-sort-keys.ts';
import { type ListSearch, listSearchValidator } from '../../components/lists/list-search.ts';

/** Site Manager URL: the list state plus `?site=` for the site whose access is open. */
export interface SiteManagerSearch extends ListSearch {
  site?: number;
}

const base = listSearchValidator(SITE_SORT_KEYS);

export function siteManagerSearch(search: Record<string, unknown>): SiteManagerSearch {
  const site = Number(search.site);
  return { ...base(search), ...(Number.isInteger(site) && site > 0 ? { site } : {}) };
}
