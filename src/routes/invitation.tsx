import { createFileRoute } from '@tanstack/react-router';
import { OpenScreen } from '../components/open-screen.tsx';
import { InvitationScreen } from '../features/companies/invitation-screen.tsx';

// Open to everyone: the link's holder reads the invitation, then joins (signing in, or making an account).
export const Route = createFileRoute('/invitation')({
  component: () => (
    <OpenScreen>
      <InvitationScreen />
    </OpenScreen>
  ),
});
