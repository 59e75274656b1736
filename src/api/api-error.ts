import type { FetchError } from 'ofetch';

/** Message when the server answered an error without a usable `message`. */
export const GENERIC_REQUEST_ERROR = 'The request failed. Please try again.';
/** Message when no answer came back at all. */
export const NETWORK_ERROR = 'The server could not be reached. Check the connection and try again.';

/**
 * A failed call to one of the services: the server's `message` (or a generic one), the HTTP
 * status (0 when nothing answered), and the server's `code` and the input `field` it names when
 * it sent them.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly field: string | null;
  readonly path: string;

  constructor(
    message: string,
    options: { status: number; code?: string | null; field?: string | null; path: string; cause?: unknown },
  ) {
    super(message, { cause: options.cause });
    this.name = 'ApiError';
    this.status = options.status;
    this.code = options.code ?? null;
    this.field = options.field ?? null;
    this.path = options.path;
  }
}

function isFetchError(error: unknown): error is FetchError {
  return error instanceof Error && error.name === 'FetchError';
}

/** HTTP status of a failed ofetch call or an ApiError; 0 when nothing answered. */
export function statusOf(error: unknown): number {
  if (error instanceof ApiError) return error.status;
  if (isFetchError(error)) return error.status ?? error.response?.status ?? 0;
  return 0;
}

/**
 * A call that asked for a file (`responseType: 'blob'`) or text holds the service's JSON error
 * body as that: read it as JSON, so that the failure carries the service's message and code.
 */
export async function readJsonErrorBody(error: unknown): Promise<void> {
  if (!isFetchError(error) || !error.response) return;
  const response = error.response as Response & { _data?: unknown };
  if (!response.headers.get('content-type')?.includes('json')) return;
  const data = response._data;
  try {
    if (data instanceof Blob) response._data = JSON.parse(await data.text());
    else if (typeof data === 'string') response._data = JSON.parse(data);
  } catch {
    // Not JSON after all: the generic message stands.
  }
}

/** Turns whatever a call threw into an ApiError with the server's message or a generic one. */
export function toApiError(error: unknown, path: string): ApiError {
  if (error instanceof ApiError) return error;
  const status = statusOf(error);
  const data: unknown = isFetchError(error) ? error.data : undefined;
  const body = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const serverMessage = typeof body.message === 'string' && body.message.trim() ? body.message : null;
  const code = typeof body.code === 'string' ? body.code : null;
  const field = typeof body.field === 'string' ? body.field : null;
  const message = serverMessage ?? (status === 0 ? NETWORK_ERROR : GENERIC_REQUEST_ERROR);
  return new ApiError(message, { status, code, field, path, cause: error });
}
