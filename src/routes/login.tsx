import { createFileRoute } from '@tanstack/react-router';
import { skipLoginWhenSignedIn } from '../app/route-guards.ts';
import { loginSearch, openCodeStep } from '../features/auth/code-link.ts';
import { LoginScreen } from '../features/auth/login-screen.tsx';

export const Route = createFileRoute('/login')({
  validateSearch: loginSearch,
  beforeLoad: async (args) => {
    await skipLoginWhenSignedIn(args);
    openCodeStep({ search: args.search, location: args.location, runtime: args.context.runtime });
  },
  component: LoginScreen,
});
