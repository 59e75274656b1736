import { createFileRoute, redirect } from '@tanstack/react-router';

// The empty path (and `/` for a signed-in user) opens the landing screen; its guard
// sends anyone not signed in on to the sign-in screen.
export const Route = createFileRoute('/')({
  beforeLoad: () => {
    throw redirect({ to: '/landing', replace: true });
  },
});
