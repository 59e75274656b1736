import { createFileRoute } from '@tanstack/react-router';
import { PageLoading } from '../../components/page-state.tsx';
import { EditSiteAddressScreen } from '../../features/sites/edit-site-address-screen.tsx';
import { loadEditSiteAddress } from '../../features/sites/site-form-loaders.ts';
import { SiteLoadError } from '../../features/sites/site-load-error.tsx';

export const Route = createFileRoute('/_shell/edit-site-address/$siteid')({
  loader: ({ context, params }) => loadEditSiteAddress(context.runtime, params.siteid),
  pendingComponent: () => <PageLoading label="Loading the site…" />,
  errorComponent: SiteLoadError,
  component: EditSiteAddressScreen,
});
