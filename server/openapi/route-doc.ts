import type { z } from 'zod';
import { refreshRequestSchema, tokenPairSchema } from '../../contracts/auth.ts';

/**
 * How a call is authorised: `bearer` needs an access token, `public` none (the configuration
 * service still wants its `api-key`), `basic` the devices list's own credentials, `open` nothing.
 */
export type RouteAuth = 'bearer' | 'public' | 'basic' | 'open';

/** One documented call of a service, described with the shared zod contracts. */
export interface RouteDoc {
  method: 'get' | 'post' | 'put' | 'delete';
  /** Path inside the service in OpenAPI form, e.g. `/sites/{id}`. */
  path: string;
  summary: string;
  tag: string;
  auth: RouteAuth;
  /** Path parameters by name, in path order. */
  params?: Record<string, z.ZodType>;
  query?: Record<string, z.ZodType>;
  headers?: Record<string, z.ZodType>;
  body?: z.ZodType;
  /** A valid body: shown in the document, and the starting point of the property test. */
  example?: Record<string, unknown>;
  /** Success and the failures particular to this call; 400/401/500 are added where they apply. */
  responses: Record<number, { description: string; schema?: z.ZodType }>;
}

/** The refresh and logout calls, the same on both services (each for its own tokens). */
export const SESSION_ROUTES: readonly RouteDoc[] = [
  {
    method: 'post',
    path: '/auth/v2/refresh',
    summary: 'Rotate a refresh token',
    tag: 'sign-in',
    auth: 'public',
    body: refreshRequestSchema,
    example: { refresh_token: 'an-opaque-refresh-token' },
    responses: { 200: { description: 'New token pair', schema: tokenPairSchema } },
  },
  {
    method: 'post',
    path: '/auth/v2/logout',
    summary: "Sign out: revoke the refresh token's family on this service",
    tag: 'sign-in',
    auth: 'public',
    body: refreshRequestSchema,
    example: { refresh_token: 'an-opaque-refresh-token' },
    responses: { 204: { description: 'Signed out (also for a token that was already spent or unknown)' } },
  },
];
