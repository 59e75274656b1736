import { createFileRoute } from '@tanstack/react-router';
import { PageLoading } from '../../components/page-state.tsx';
import { CreateSiteError } from '../../features/sites/create-site-error.tsx';
import { CreateSiteScreen } from '../../features/sites/create-site-screen.tsx';
import { loadCreateSite } from '../../features/sites/site-form-loaders.ts';

export const Route = createFileRoute('/_shell/create-site')({
  loader: ({ context }) => loadCreateSite(context.runtime),
  pendingComponent: () => <PageLoading />,
  errorComponent: CreateSiteError,
  component: CreateSiteScreen,
});
