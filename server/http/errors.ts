import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import type { ErrorBody } from '../../contracts/auth.ts';

/** A failure the client should see: status, stable `code`, a readable message, maybe a field. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
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

/**
 * The one error handler: ApiErrors answer as they are; anything else is logged and answers a
 * generic 500, so no stack trace or SQL text ever reaches a client.
 */
export function handleError(error: Error, c: Context): Response {
  if (error instanceof ApiError) {
    const body: ErrorBody = { message: error.message, code: error.code };
    if (error.field) body.field = error.field;
    return c.json(body, error.status);
  }
  if (error instanceof SyntaxError) {
    return c.json({ message: 'The body is not valid JSON', code: 'invalid_json' }, 400);
  }
  const status = (error as { status?: unknown }).status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return c.json(
      { message: error.message || 'Bad request', code: 'bad_request' },
      status as ContentfulStatusCode,
    );
  }
  console.error(`[${c.req.method} ${c.req.path}]`, error);
  return c.json({ message: 'Something went wrong on the server', code: 'internal' }, 500);
}

/** Answer for an unknown route inside a service. */
export function handleNotFound(c: Context): Response {
  return c.json({ message: `No such call: ${c.req.method} ${c.req.path}`, code: 'not_found' }, 404);
}
