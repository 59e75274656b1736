import type { Site } from '../../../contracts/sites.ts';
import { AnchorLink } from '../../components/anchor-link.tsx';
import type { Column } from '../../components/lists/data-list.tsx';

/** Columns of the sites list, its cards and its CSV. */
export const SITE_COLUMNS: Column<Site>[] = [
  {
    key: 'name',
    header: 'Name',
    text: (site) => site.name,
    render: (site) => (
      <AnchorLink to="/site-details/$siteid" params={{ siteid: String(site.id) }}>
        {site.name}
      </AnchorLink>
    ),
  },
  { key: 'address', header: 'Address', text: (site) => site.displayAddress },
  { key: 'locality', header: 'Town', text: (site) => site.locality },
  { key: 'state', header: 'State', text: (site) => site.state },
  { key: 'id', header: 'Site id', text: (site) => String(site.id), csvOnly: true },
];

export const SITE_SORT_OPTIONS = [
  { value: 'name', label: 'Name A–Z' },
  { value: '-name', label: 'Name Z–A' },
  { value: 'locality', label: 'Town A–Z' },
  { value: '-id', label: 'Newest first' },
];
