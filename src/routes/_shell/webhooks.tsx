import { createFileRoute } from '@tanstack/react-router';
import { PageError } from '../../components/page-state.tsx';
import { WebhooksScreen } from '../../features/account/webhooks-screen.tsx';

// The screen's machine reads the webhooks itself, with its own loading, empty and failed states.
export const Route = createFileRoute('/_shell/webhooks')({
  errorComponent: PageError,
  component: WebhooksScreen,
});
