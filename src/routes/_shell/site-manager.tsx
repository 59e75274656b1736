import { createFileRoute } from '@tanstack/react-router';
import { PageLoading } from '../../components/page-state.tsx';
import { SiteManagerError } from '../../features/site-manager/site-manager-error.tsx';
import { loadSiteManager } from '../../features/site-manager/site-manager-loader.ts';
import { SiteManagerScreen } from '../../features/site-manager/site-manager-screen.tsx';
import { siteManagerSearch } from '../../features/site-manager/site-manager-search.ts';

export const Route = createFileRoute('/_shell/site-manager')({
  validateSearch: siteManagerSearch,
  loaderDeps: ({ search }) => ({ page: search.page, q: search.q, sort: search.sort, site: search.site }),
  loader: ({ context, deps }) => loadSiteManager(context.runtime, deps),
  pendingComponent: () => <PageLoading label="Loading all sites…" />,
  errorComponent: SiteManagerError,
  component: SiteManagerScreen,
});
