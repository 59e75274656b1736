import { createFileRoute } from '@tanstack/react-router';
import { skipLoginWhenSignedIn } from '../components/route-guards.ts';
import { LoginScreen } from '../components/sign-in/login-screen.tsx';

export const Route = createFileRoute('/login')({
  beforeLoad: skipLoginWhenSignedIn,
  component: LoginScreen,
});
