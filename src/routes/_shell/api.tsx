import { createFileRoute } from '@tanstack/react-router';
import { PageError, PageLoading } from '../../components/page-state.tsx';
import { ApiReferenceScreen } from '../../features/api-reference/api-reference-screen.tsx';
import { loadViewer } from '../../features/api-reference/load-viewer.ts';

// The viewer loads with the route (its own chunk), never with the rest of the app.
export const Route = createFileRoute('/_shell/api')({
  loader: loadViewer,
  pendingComponent: () => <PageLoading label="Loading the API reference…" />,
  errorComponent: PageError,
  component: function ApiRoute() {
    return <ApiReferenceScreen viewer={Route.useLoaderData()} />;
  },
});
