import { createFileRoute } from '@tanstack/react-router';
import { PageError, PageLoading } from '../../components/page-state.tsx';
import { loadFirmware } from '../../features/firmware/firmware-loader.ts';
import { FirmwareScreen } from '../../features/firmware/firmware-screen.tsx';

export const Route = createFileRoute('/_shell/firmware')({
  loader: ({ context, abortController }) => loadFirmware(context.runtime, abortController.signal),
  // Read afresh at each visit: the page's machine starts from what the loader read, and a list
  // kept from the last visit would not show a rollout started since.
  gcTime: 0,
  pendingComponent: () => <PageLoading label="Loading firmware…" />,
  errorComponent: PageError,
  component: FirmwareScreen,
});
