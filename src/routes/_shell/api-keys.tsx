import { createFileRoute } from '@tanstack/react-router';
import { PageError } from '../../components/page-state.tsx';
import { ApiKeysScreen } from '../../features/account/api-keys-screen.tsx';

// The screen's machine reads the keys itself, with its own loading, empty and failed states.
export const Route = createFileRoute('/_shell/api-keys')({
  errorComponent: PageError,
  component: ApiKeysScreen,
});
