import { useRouter } from '@tanstack/react-router';
import { useMemo } from 'react';
import { fromPromise } from 'xstate';

/**
 * The app's one way to show a saved change: the `refresh` actor every machine that changes data
 * invokes once the service has it (the save machine, the commissioning dialogs), which runs every
 * loader of the page again (the router's `invalidate`).
 */
export function usePageRefresh() {
  const router = useRouter();
  return useMemo(() => fromPromise<void>(() => router.invalidate()), [router]);
}
