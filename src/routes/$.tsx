import { createFileRoute, redirect } from '@tanstack/react-router';

// Any other path, `/index.html` included, opens the landing screen.
export const Route = createFileRoute('/$')({
  beforeLoad: () => {
    throw redirect({ to: '/landing', replace: true });
  },
});
