import { waitFor } from 'xstate';
import type { AppConfig } from '../../contracts/app-config.ts';
import { isAuthenticated } from '../../machines/auth/auth-selectors.ts';
import type { ApiError } from '../../src/api/api-error.ts';
import { createAppRuntime } from '../../src/app/app-runtime.ts';
import { MemoryStorage } from '../machines/fakes.ts';
import type { TestServer } from './test-server.ts';

export function testConfig(server: TestServer): AppConfig {
  return {
    configUrl: `${server.url}/config`,
    monitoringUrl: `${server.url}/monitoring`,
    devicesListUrl: `${server.url}/config/devices-list`,
    apiKey: 'test-api-key',
    linkKey: 'fleet-link:s3cret',
    companyDomain: 'fleet.example',
    mapsApiKey: null,
  };
}

/** The real runtime over a real local server, with memory storage and recorded navigation and logs. */
export function startRuntime(server: TestServer, storage = new MemoryStorage()) {
  const navigations: Array<{ to: string; replace: boolean; resume?: boolean }> = [];
  const logged: ApiError[] = [];
  const messages: string[] = [];
  const runtime = createAppRuntime(testConfig(server), {
    navigate: (to, options) => navigations.push({ to, ...options }),
    storage,
    assetBaseUrl: server.url,
    log: (message, error) => {
      if (error) logged.push(error);
      else messages.push(message);
    },
  });
  return { runtime, storage, navigations, logged, messages };
}

/** Signs in through the real login endpoints of `server`. */
export async function signIn(runtime: ReturnType<typeof createAppRuntime>, email: string, password: string) {
  runtime.auth.send({ type: 'auth.login', email, password });
  return waitFor(runtime.auth, (s) => isAuthenticated(s) || s.context.loginError !== null);
}
