import { createFileRoute } from '@tanstack/react-router';
import { skipLoginWhenSignedIn } from '../app/route-guards.ts';
import { LoginScreen } from '../features/auth/login-screen.tsx';

export const Route = createFileRoute('/login')({
  beforeLoad: skipLoginWhenSignedIn,
  component: LoginScreen,
});
