import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import type { ErrorBody } from '../../contracts/auth.ts';

/**
 * A failure the client should see: status, stable `code`, a readable message, maybe a field.
 * It is Hono's `HTTPException`, so middleware and handlers throw one kind of failure and the
 * server's one `onError` answers it.
 */
export class ApiError extends HTTPException {
  /** Seconds until a refused call may be tried again (a 429): sent as `Retry-After` and `retryAfter`. */
  retryAfter?: number;

  constructor(
    status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(status, { message });
    this.name = 'ApiError';
  }
}

/**
 * 429 `rate_limited` that says how long to wait, in its message and as `Retry-After`.
 * @example tooManyAttempts('Too many failed sign-ins; try again in 12 minutes.', 700)
 */
export function tooManyAttempts(message: string, retryAfter: number): ApiError {
  const error = new ApiError(429, 'rate_limited', message);
  error.retryAfter = retryAfter;
  return error;
}

export const unauthorized = (message = 'Sign in first', code = 'unauthorized') =>
  new ApiError(401, code, message);
export const forbidden = (message = 'You may not do this', code = 'forbidden') =>
  new ApiError(403, code, message);
export const notFound = (what: string) => new ApiError(404, 'not_found', `${what} not found`);

/** Turn the first zod issue into a 400 naming the failing field. */
export function validationError(error: z.ZodError, where: string): ApiError {
  const issue = error.issues[0];
  const field = issue?.path.join('.') || where;
  return new ApiError(400, 'invalid_input', `${field}: ${issue?.message ?? 'invalid'}`, field);
}

/** Stable codes for the 4xx failures Hono's own middleware throws. */
const HONO_CODES: Partial<Record<number, string>> = { 413: 'body_too_large' };

/**
 * The one error handler of the whole server, registered once in `createServer`: an `ApiError`
 * answers as it is, any other `HTTPException` (from Hono's middleware) answers its status with
 * `{message, code}`; anything else is logged and answers a generic 500, so no stack trace or SQL
 * text ever reaches a client.
 */
export function handleError(error: Error, c: Context): Response {
  if (error instanceof ApiError) {
    const body: ErrorBody = { message: error.message, code: error.code };
    if (error.field) body.field = error.field;
    if (error.retryAfter !== undefined) {
      body.retryAfter = error.retryAfter;
      c.header('Retry-After', String(error.retryAfter));
    }
    return c.json(body, error.status);
  }
  if (error instanceof HTTPException && error.status < 500) {
    const code = HONO_CODES[error.status] ?? 'bad_request';
    return c.json({ message: error.message || 'Bad request', code }, error.status);
  }
  if (error instanceof SyntaxError) {
    return c.json({ message: 'The body is not valid JSON', code: 'invalid_json' }, 400);
  }
  console.error(`[${c.req.method} ${c.req.path}]`, error);
  return c.json({ message: 'Something went wrong on the server', code: 'internal' }, 500);
}

/** Answer for an unknown route. */
export function handleNotFound(c: Context): Response {
  return c.json({ message: `No such call: ${c.req.method} ${c.req.path}`, code: 'not_found' }, 404);
}
