import { createFileRoute } from '@tanstack/react-router';
import { PageError, PageLoading } from '../../components/page-state.tsx';
import { loadFirmware } from '../../features/firmware/firmware-loader.ts';
import { FirmwareScreen } from '../../features/firmware/firmware-screen.tsx';

export const Route = createFileRoute('/_shell/firmware')({
  loader: ({ context }) => loadFirmware(context.runtime),
  pendingComponent: () => <PageLoading label="Loading firmware…" />,
  errorComponent: PageError,
  component: FirmwareScreen,
});
