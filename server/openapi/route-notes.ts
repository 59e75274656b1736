import type { MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import type { RequestLimitName } from '../limits/request-limits.ts';

/** Where a validated input comes from, as Hono names it (`c.req.valid(target)`). */
export type InputTarget = 'json' | 'param' | 'query' | 'header';

/** The security schemes of the OpenAPI documents: one per guard middleware. */
export type SecurityScheme = 'apiKey' | 'bearer' | 'linkKey';

/** What the document adds to the guards' schemes: a personal key, accepted wherever `apiKey` and `bearer` are. */
export type DocumentScheme = SecurityScheme | 'personalKey';

/** What a route says about itself beside its validated inputs: what it is for and what it answers. */
export interface RouteDescription {
  summary: string;
  tag: string;
  /** More than the summary, in CommonMark: how integrators call it (examples in curl and JavaScript). */
  details?: string;
  /** The request limits the call counts against (`server/limits/request-limits.ts`), besides a key's own. */
  limits?: readonly RequestLimitName[];
  /** A valid body: shown in the document, and the starting point of the random-input test. */
  example?: Record<string, unknown>;
  /** A body that is not JSON (a firmware image): its media type and what it holds. */
  binaryBody?: { contentType: string; description: string };
  /**
   * Success and the failures particular to this call; 400 and 401 are added where they apply. A
   * success that is not JSON names its `contentType` (a PDF), documented as a binary body.
   */
  responses: Record<
    number,
    {
      description: string;
      schema?: z.ZodType;
      contentType?: string;
      /** The answer also comes as `text/csv` when `Accept` asks for it: what the CSV holds. */
      csv?: string;
    }
  >;
}

/**
 * A note on one middleware of a route: a description, a validated input, or a guard. The OpenAPI
 * document is read from these notes on the routes the app registered, so the code that validates
 * and guards a call is the code that documents it.
 */
export type RouteNote =
  | { kind: 'description'; description: RouteDescription }
  | { kind: 'input'; target: InputTarget; schema: z.ZodType }
  | { kind: 'guard'; scheme: SecurityScheme };

// biome-ignore lint/complexity/noBannedTypes: notes are keyed by the middleware function itself
const notes = new WeakMap<Function, RouteNote>();

/** Attach a note to a middleware; answers the middleware. */
// biome-ignore lint/complexity/noBannedTypes: any middleware or handler
export function withNote<F extends Function>(middleware: F, note: RouteNote): F {
  notes.set(middleware, note);
  return middleware;
}

/** The note on a middleware, if it has one. */
// biome-ignore lint/complexity/noBannedTypes: any middleware or handler
export function noteOf(middleware: Function): RouteNote | undefined {
  return notes.get(middleware);
}

/**
 * Middleware that only describes its route in the service's OpenAPI document: put it first in the
 * route's chain, beside the `validate` middleware that document its inputs.
 * @example app.get('/:id', describeRoute({ summary: 'A user', tag: 'users', responses: { 200: … } }), validate('param', …), handler)
 */
export function describeRoute(description: RouteDescription): MiddlewareHandler {
  return withNote<MiddlewareHandler>((_c, next) => next(), { kind: 'description', description });
}
