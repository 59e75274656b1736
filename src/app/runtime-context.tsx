import { createContext, type ReactNode, useContext } from 'react';
import type { AppRuntime } from './app-runtime.ts';

const RuntimeContext = createContext<AppRuntime | null>(null);

/** Makes the started runtime (machines, config, API clients) available to every view. */
export function RuntimeProvider({ runtime, children }: { runtime: AppRuntime; children: ReactNode }) {
  return <RuntimeContext.Provider value={runtime}>{children}</RuntimeContext.Provider>;
}

/**
 * The runtime the app was started with.
 *
 * @throws Error when a view renders outside `RuntimeProvider` (a wiring mistake, never a user error)
 */
export function useRuntime(): AppRuntime {
  const runtime = useContext(RuntimeContext);
  if (!runtime) throw new Error('useRuntime: no RuntimeProvider above this view');
  return runtime;
}
