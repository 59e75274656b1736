import { createFileRoute } from '@tanstack/react-router';
import { LandingScreen } from '../../components/landing-screen.tsx';

export const Route = createFileRoute('/_shell/landing')({
  component: LandingScreen,
});
