import { createFileRoute } from '@tanstack/react-router';
import { PageError, PageLoading } from '../../components/page-state.tsx';
import { loadDevicesList } from '../../features/devices/devices-list-loader.ts';
import { DevicesListScreen } from '../../features/devices/devices-list-screen.tsx';
import { devicesListSearch } from '../../features/devices/devices-list-search.ts';

export const Route = createFileRoute('/_shell/devices-list')({
  validateSearch: devicesListSearch,
  loaderDeps: ({ search }) => ({
    page: search.page,
    q: search.q,
    sort: search.sort,
    state: search.state,
    siteId: search.siteId,
  }),
  loader: ({ context, deps }) => loadDevicesList(context.runtime, deps),
  pendingComponent: () => <PageLoading label="Loading devices…" />,
  errorComponent: PageError,
  component: DevicesListScreen,
});
