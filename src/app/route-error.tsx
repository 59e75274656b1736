import { Center } from '@mantine/core';
import { type ErrorComponentProps, useMatch } from '@tanstack/react-router';
import { PageError } from '../components/page-state.tsx';

/**
 * The error view of every route without one of its own, the root included: the app's page
 * (`PageError`, or "Reload" when the screen's code could not be downloaded), never the router's
 * bare message. Inside the signed-in shell it fills the shell's content; anywhere else it is the
 * page's main content itself.
 */
export function RouteError({ error }: ErrorComponentProps) {
  const routeId: string = useMatch({ strict: false }).routeId;
  if (routeId.startsWith('/_shell/')) return <PageError error={error} />;
  return (
    <Center component="main" mih="100dvh" p="md">
      <PageError error={error} />
    </Center>
  );
}
