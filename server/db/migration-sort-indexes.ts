/**
 * Lists sort on the server across every page (`?sort=`). These indexes serve the sorts people
 * use most on the largest lists (an admin's every site, device and user), so a sorted page is an
 * index walk rather than a sort of the whole table; ties are broken by id, in the same direction,
 * so the walk serves both directions.
 */
export const SORT_INDEXES_SQL = `
  CREATE INDEX sites_name_sort_idx ON sites (lower(name), id);
  CREATE INDEX sites_locality_sort_idx ON sites (lower(locality), id);
  CREATE INDEX devices_installed_sort_idx ON devices (installed_at, id);
  CREATE INDEX users_name_sort_idx ON users (lower(display_name), id);
`;
