import type { $Fetch, FetchOptions } from 'ofetch';
import { errorMessage } from '../../contracts/error-message.ts';
import type { AccessToken } from '../../machines/auth/tokens.ts';
import type { Service } from '../../machines/storage-keys.ts';
import { ApiError, readJsonErrorBody, statusOf, toApiError } from './api-error.ts';
import { isFirmwarePath, isPublicPath, requestHeaders } from './header-rules.ts';
import type { TokenSession } from './token-session.ts';

/** Options of one call: ofetch's, with a JSON response. */
export type ApiRequestOptions = FetchOptions<'json'>;

/** One service's client: `api<T>(path, options)` resolves with the parsed JSON answer. */
export type ApiClient = <T = unknown>(path: string, options?: ApiRequestOptions) => Promise<T>;

export interface ApiClientOptions {
  service: Service;
  baseURL: string;
  /** Base URL of the configuration service: a 401 on a URL under it refreshes `config`. */
  configBaseURL: string;
  apiKey: string;
  session: TokenSession;
  /** An ofetch instance (tests pass one over their own `fetch`). */
  fetcher: $Fetch;
  /** Where failures are logged; `console.error` by default. */
  log?: (message: string, error: ApiError) => void;
}

/**
 * Which service a URL belongs to (specification §8): configuration when it is on the
 * configuration base URL, otherwise monitoring.
 */
export function owningService(url: string, configBaseURL: string): Service {
  const base = configBaseURL.replace(/\/+$/, '');
  return url === base || url.startsWith(`${base}/`) ? 'config' : 'monitoring';
}

function joinURL(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/**
 * A client for one service with the header rules of specification §7 and the 401 handling of
 * §8: refresh the owning service once (shared by every parallel caller) and retry once; if the
 * refresh fails the auth machine logs out to `/login` and the call rejects. Every other failure
 * rejects with an {@link ApiError} carrying the server's message or a generic one, and is logged.
 *
 * @example
 * const sites = await configApi<Site[]>(`/fleet/site-list/${userId}/0`);
 * @throws ApiError on any failed call
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const { service, baseURL, configBaseURL, apiKey, session, fetcher } = options;
  const log = options.log ?? ((message, error) => console.error(message, error));

  const send = async <T>(
    path: string,
    init: ApiRequestOptions,
    accessToken: AccessToken | null,
  ): Promise<T> => {
    try {
      return await fetcher<T, 'json'>(joinURL(baseURL, path), {
        ...init,
        retry: false,
        headers: { ...requestHeaders({ service, path, apiKey, accessToken }), ...headersOf(init.headers) },
      });
    } catch (error) {
      await readJsonErrorBody(error);
      throw error;
    }
  };

  /** The call's error; logged unless the caller gave up on it (its signal aborted): nothing failed then. */
  const fail = (path: string, error: unknown, signal?: AbortSignal | null): ApiError => {
    const apiError = toApiError(error, path);
    if (!signal?.aborted) log(`${serviceLabel(service)} ${path} failed: ${apiError.message}`, apiError);
    return apiError;
  };

  return async <T>(path: string, init: ApiRequestOptions = {}): Promise<T> => {
    const owner = owningService(joinURL(baseURL, path), configBaseURL);
    const used = session.getAccessToken(owner);
    try {
      return await send<T>(path, init, session.getAccessToken(service));
    } catch (error) {
      if (statusOf(error) !== 401 || isPublicPath(path) || isFirmwarePath(path))
        throw fail(path, error, init.signal);
    }
    let token: AccessToken | null = session.getAccessToken(owner);
    try {
      // Another caller may have refreshed since this request left: then just retry with its token.
      if (!token || token === used) token = await session.refresh(owner);
    } catch (error) {
      throw fail(
        path,
        new ApiError(errorMessage(error), {
          status: 401,
          path,
          cause: error,
        }),
      );
    }
    try {
      return await send<T>(path, init, owner === service ? token : session.getAccessToken(service));
    } catch (error) {
      throw fail(path, error, init.signal);
    }
  };
}

const serviceLabel = (service: Service) =>
  service === 'config' ? 'Configuration service:' : 'Monitoring service:';

function headersOf(headers: ApiRequestOptions['headers']): Record<string, string> {
  if (!headers) return {};
  if (headers instanceof Headers) return Object.fromEntries(headers.entries());
  if (Array.isArray(headers)) return Object.fromEntries(headers);
  return { ...headers } as Record<string, string>;
}
