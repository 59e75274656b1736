import { createFileRoute } from '@tanstack/react-router';
import { OpenScreen } from '../components/open-screen.tsx';
import { SunSpecConfigScreen } from '../features/sunspec/sunspec-config-screen.tsx';

// Open to everyone: no guard, no loader, no server call.
export const Route = createFileRoute('/sunspec-config')({
  component: () => (
    <OpenScreen>
      <SunSpecConfigScreen />
    </OpenScreen>
  ),
});
