import { createFileRoute } from '@tanstack/react-router';
import { PageError, PageLoading } from '../../components/page-state.tsx';
import { loadSiteManager } from '../../features/site-manager/site-manager-loader.ts';
import { SiteManagerScreen } from '../../features/site-manager/site-manager-screen.tsx';
import { siteManagerSearch } from '../../features/site-manager/site-manager-search.ts';

export const Route = createFileRoute('/_shell/site-manager')({
  validateSearch: siteManagerSearch,
  loaderDeps: ({ search }) => ({ page: search.page, q: search.q, site: search.site }),
  loader: ({ context, deps }) => loadSiteManager(context.runtime, deps),
  pendingComponent: () => <PageLoading label="Loading all sites…" />,
  errorComponent: ({ error }) => (
    <PageError error={error} messages={{ forbidden: "You don't have access to Site Manager" }} />
  ),
  component: SiteManagerScreen,
});
