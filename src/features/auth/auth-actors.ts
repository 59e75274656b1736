import type { $Fetch } from 'ofetch';
import { fromPromise } from 'xstate';
import type { AppConfig } from '../../../contracts/app-config.ts';
import type { TokenPair } from '../../../contracts/auth.ts';
import type { EndSessionInput } from '../../../machines/auth/auth-types.ts';
import type { AccessToken, RefreshToken } from '../../../machines/auth/tokens.ts';
import type { Service } from '../../../machines/storage-keys.ts';
import { ApiError, toApiError } from '../../api/api-error.ts';
import { requestHeaders } from '../../api/header-rules.ts';
import { stopDeferring, whenIdle } from '../../when-idle.ts';
import { serviceDownMessage } from './service-down.ts';

/**
 * The auth machine's I/O: the two logins, the refresh and the logout call. They do not go through the API
 * clients (a 401 here is an answer, not a reason to refresh), but follow the same header rules.
 * A service that cannot be reached or answers 502/503/504 fails with a message naming it.
 */
export function createAuthActors(config: AppConfig, fetcher: $Fetch) {
  // The token schema, and zod with it, is not part of the sign-in screen's scripts: it starts
  // loading once the first screen is up and is awaited only when an answer is checked (a failed
  // load is tried again).
  let loading: Promise<typeof import('../../../contracts/auth.ts')> | undefined;
  const contracts = () => {
    if (!loading) {
      loading = whenIdle().then(() => import('../../../contracts/auth.ts'));
      loading.catch(() => {
        loading = undefined;
      });
    }
    return loading;
  };
  contracts().catch(() => undefined);
  const urlOf = (service: Service, path: string) =>
    `${(service === 'config' ? config.configUrl : config.monitoringUrl).replace(/\/+$/, '')}${path}`;
  const post = async (service: Service, path: string, body: Record<string, string>): Promise<TokenPair> => {
    // The answer is checked with the schemas and the next screen needs the catalogue: no more
    // waiting for idle moments (a sign-in pressed before the app ran had no input to end a hold).
    stopDeferring();
    let answer: unknown;
    try {
      answer = await fetcher(urlOf(service, path), {
        method: 'POST',
        body,
        retry: false,
        headers: requestHeaders({ service, path, apiKey: config.apiKey, accessToken: null }),
      });
    } catch (error) {
      const failure = toApiError(error, path);
      // A service that is down is named, with what to do, instead of a bare network error.
      const down = serviceDownMessage(service, failure.status);
      if (down) throw new ApiError(down, { status: failure.status, code: failure.code, path, cause: error });
      throw failure;
    }
    const { tokenPairSchema } = await contracts();
    const parsed = tokenPairSchema.safeParse(answer);
    if (!parsed.success) {
      throw new ApiError('The server answered without tokens.', { status: 200, path, cause: parsed.error });
    }
    return parsed.data;
  };

  return {
    configLogin: fromPromise<TokenPair, { email: string; password: string }>(({ input }) =>
      post('config', '/auth/v2/login', { main_email: input.email, password: input.password }),
    ),
    monitoringLogin: fromPromise<TokenPair, { email: string; accessToken: AccessToken }>(({ input }) =>
      post('monitoring', '/auth/v2/configurator-login', {
        username: input.email,
        access_token: input.accessToken,
      }),
    ),
    refreshTokens: fromPromise<TokenPair, { service: Service; refreshToken: RefreshToken }>(({ input }) =>
      post(input.service, '/auth/v2/refresh', { refresh_token: input.refreshToken }),
    ),
    /**
     * Revokes each service's refresh family. Best effort: the person is signed out here whatever the
     * services answer (an error, a 404 from a deployment without the endpoint, no network).
     */
    endServerSession: fromPromise<void, EndSessionInput>(async ({ input }) => {
      const path = '/auth/v2/logout';
      const revoke = async (service: Service) => {
        const token = input[service];
        if (!token) return;
        await fetcher(urlOf(service, path), {
          method: 'POST',
          body: { refresh_token: token },
          retry: false,
          // The page may be closed or navigated right after a logout: let the request finish.
          keepalive: true,
          headers: requestHeaders({ service, path, apiKey: config.apiKey, accessToken: null }),
        });
      };
      await Promise.allSettled([revoke('config'), revoke('monitoring')]);
    }),
  };
}
