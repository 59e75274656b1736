import { createFileRoute } from '@tanstack/react-router';
import { PageLoading } from '../../components/page-state.tsx';
import { loadSiteDetails } from '../../features/sites/site-details-loader.ts';
import { SiteDetailsScreen } from '../../features/sites/site-details-screen.tsx';
import { SiteLoadError } from '../../features/sites/site-load-error.tsx';

export const Route = createFileRoute('/_shell/site-details/$siteid')({
  loader: ({ context, params }) => loadSiteDetails(context.runtime, params.siteid),
  pendingComponent: () => <PageLoading label="Loading the site…" />,
  errorComponent: SiteLoadError,
  component: SiteDetailsScreen,
});
