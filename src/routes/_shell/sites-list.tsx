import { createFileRoute } from '@tanstack/react-router';
import { SITE_SORT_KEYS } from '../../../contracts/list-sort-keys.ts';
import { listSearchValidator } from '../../components/lists/list-search.ts';
import { PageError, PageLoading } from '../../components/page-state.tsx';
import { loadSitesList } from '../../features/sites/sites-list-loader.ts';
import { SitesListScreen } from '../../features/sites/sites-list-screen.tsx';

export const Route = createFileRoute('/_shell/sites-list')({
  validateSearch: listSearchValidator(SITE_SORT_KEYS),
  loaderDeps: ({ search }) => ({ page: search.page, q: search.q, sort: search.sort }),
  loader: ({ context, deps }) => loadSitesList(context.runtime, deps),
  pendingComponent: () => <PageLoading label="Loading sites…" />,
  errorComponent: PageError,
  component: SitesListScreen,
});
