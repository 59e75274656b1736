import { createFileRoute } from '@tanstack/react-router';
import { OpenScreen } from '../components/open-screen.tsx';
import { ScreenPlaceholder } from '../components/screen-placeholder.tsx';

export const Route = createFileRoute('/sunspec-config')({
  component: () => (
    <OpenScreen>
      <ScreenPlaceholder title="SunSpec configuration" />
    </OpenScreen>
  ),
});
