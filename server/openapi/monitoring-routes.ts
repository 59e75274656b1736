import {
  configuratorLoginRequestSchema,
  fleetLoginRequestSchema,
  legacyTokenSchema,
  principalSchema,
  tokenPairSchema,
} from '../../contracts/auth.ts';
import { type RouteDoc, SESSION_ROUTES } from './route-doc.ts';

/** Every call of the monitoring service (paths relative to its mount, `/monitoring`). */
export const MONITORING_ROUTES: readonly RouteDoc[] = [
  {
    method: 'get',
    path: '/openapi.json',
    summary: 'This document',
    tag: 'meta',
    auth: 'open',
    responses: { 200: { description: 'OpenAPI 3.1 document' } },
  },
  {
    method: 'post',
    path: '/auth/v2/configurator-login',
    summary: 'Sign in with a configuration access token of the same user',
    tag: 'sign-in',
    auth: 'public',
    body: configuratorLoginRequestSchema,
    example: { username: 'admin@fleet.example', access_token: 'a-configuration-access-token' },
    responses: { 200: { description: 'Token pair', schema: tokenPairSchema } },
  },
  ...SESSION_ROUTES,
  {
    method: 'post',
    path: '/auth/fleet-login',
    summary: 'Sign in with a base64-encoded password (older call)',
    tag: 'sign-in',
    auth: 'public',
    body: fleetLoginRequestSchema,
    example: { username: 'admin@fleet.example', password: 'RmxlZXRBZG1pbiMyMDI2' },
    responses: {
      200: { description: 'Access token', schema: legacyTokenSchema },
      429: { description: 'Rate limited' },
    },
  },
  {
    method: 'get',
    path: '/me',
    summary: 'Who the monitoring access token speaks for',
    tag: 'sign-in',
    auth: 'bearer',
    responses: { 200: { description: 'The signed-in user', schema: principalSchema } },
  },
];
