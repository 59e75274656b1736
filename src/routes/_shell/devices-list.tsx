import { createFileRoute } from '@tanstack/react-router';
import { PageError, PageLoading } from '../../components/page-state.tsx';
import { loadInstalledDevices } from '../../features/devices/installed-devices-loader.ts';
import { InstalledDevicesScreen } from '../../features/devices/installed-devices-screen.tsx';
import { installedDevicesSearch } from '../../features/devices/installed-devices-search.ts';

export const Route = createFileRoute('/_shell/devices-list')({
  validateSearch: installedDevicesSearch,
  loaderDeps: ({ search }) => ({
    page: search.page,
    q: search.q,
    sort: search.sort,
    state: search.state,
    siteId: search.siteId,
  }),
  loader: ({ context, deps }) => loadInstalledDevices(context.runtime, deps),
  pendingComponent: () => <PageLoading label="Loading devices…" />,
  errorComponent: PageError,
  component: InstalledDevicesScreen,
});
