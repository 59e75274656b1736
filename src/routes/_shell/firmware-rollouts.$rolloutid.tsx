import { createFileRoute } from '@tanstack/react-router';
import { PageError, PageLoading } from '../../components/page-state.tsx';
import { loadRollout } from '../../features/firmware/firmware-loader.ts';
import { RolloutScreen } from '../../features/firmware/rollout-screen.tsx';

function RolloutError({ error }: { error: unknown }) {
  return <PageError error={error} messages={{ notFound: 'No such rollout' }} />;
}

export const Route = createFileRoute('/_shell/firmware-rollouts/$rolloutid')({
  loader: ({ context, params }) => loadRollout(context.runtime, params.rolloutid),
  pendingComponent: () => <PageLoading label="Loading the rollout…" />,
  errorComponent: RolloutError,
  component: RolloutScreen,
});
