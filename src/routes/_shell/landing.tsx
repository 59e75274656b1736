import { createFileRoute } from '@tanstack/react-router';
import { PageLoading } from '../../components/page-state.tsx';
import { loadLanding } from '../../features/landing/landing-loader.ts';
import { LandingScreen } from '../../features/landing/landing-screen.tsx';

export const Route = createFileRoute('/_shell/landing')({
  loader: ({ context }) => loadLanding(context.runtime),
  pendingComponent: () => <PageLoading label="Loading your summary…" />,
  component: LandingScreen,
});
