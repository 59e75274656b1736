import { createFileRoute } from '@tanstack/react-router';
import { PageError, PageLoading } from '../../components/page-state.tsx';
import { loadRemoteDebugger } from '../../features/remote-debugger/remote-debugger-loader.ts';
import { RemoteDebuggerScreen } from '../../features/remote-debugger/remote-debugger-screen.tsx';

export const Route = createFileRoute('/_shell/remote-debugger')({
  loader: ({ context }) => loadRemoteDebugger(context.runtime),
  pendingComponent: () => <PageLoading label="Opening the Remote Debugger…" />,
  errorComponent: ({ error }) => (
    <PageError error={error} messages={{ forbidden: "You don't have access to Remote Debugger" }} />
  ),
  component: RemoteDebuggerScreen,
});
