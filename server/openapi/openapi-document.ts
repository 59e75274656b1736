import { Hono } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';
import { z } from 'zod';
import { errorBodySchema } from '../../contracts/auth.ts';
import { SERVICE_MOUNTS, type ServiceName } from '../../contracts/services.ts';
import { REQUEST_LIMITS } from '../limits/request-limits.ts';
import {
  type DocumentScheme,
  describeRoute,
  type InputTarget,
  noteOf,
  type RouteDescription,
  type RouteNote,
  type SecurityScheme,
} from './route-notes.ts';

/** One call of a service as its registered middleware describe it. */
export interface DocumentedRoute {
  method: string;
  /** Path inside the service in OpenAPI form, e.g. `/sites/{id}`. */
  path: string;
  description: RouteDescription;
  inputs: Partial<Record<InputTarget, z.ZodType>>;
  /** The guards that run before the call, in the order they run. */
  security: SecurityScheme[];
}

const TITLES: Record<ServiceName, string> = {
  config: 'Fleet Manager configuration service',
  monitoring: 'Fleet Manager monitoring service',
};

/**
 * Every described route of an app, read from the notes on its registered middleware: the
 * description, the validated inputs, and the guards that run first. A guard mounted with `use`
 * applies to a route when its pattern matches the route's path and it was registered before the
 * route, as Hono runs them; so the document states the access rules the mounting makes.
 */
export function documentedRoutes(
  // biome-ignore lint/suspicious/noExplicitAny: any app's variables
  app: Hono<any>,
): DocumentedRoute[] {
  const guards = new TrieRouter<{ index: number; scheme: SecurityScheme }>();
  const routes = new Map<string, { first: number; method: string; path: string; notes: RouteNote[] }>();
  app.routes.forEach((route, index) => {
    const note = noteOf(route.handler);
    if (route.method === 'ALL') {
      if (note?.kind === 'guard') guards.add(route.method, route.path, { index, scheme: note.scheme });
      return;
    }
    const key = `${route.method} ${route.path}`;
    const entry = routes.get(key) ?? { first: index, method: route.method, path: route.path, notes: [] };
    routes.set(key, entry);
    if (note) entry.notes.push(note);
  });
  const documented: DocumentedRoute[] = [];
  for (const route of routes.values()) {
    const description = route.notes.find((note) => note.kind === 'description')?.description;
    if (!description) continue;
    const mounted = guards
      .match(route.method, route.path)[0]
      .map(([guard]) => guard)
      .filter((guard) => guard.index < route.first)
      .sort((a, b) => a.index - b.index)
      .map((guard) => guard.scheme);
    const own = route.notes.flatMap((note) => (note.kind === 'guard' ? [note.scheme] : []));
    const inputs: DocumentedRoute['inputs'] = {};
    for (const note of route.notes) if (note.kind === 'input') inputs[note.target] = note.schema;
    documented.push({
      method: route.method.toLowerCase(),
      path: route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}'),
      description,
      inputs,
      security: [...new Set([...mounted, ...own])],
    });
  }
  return documented;
}

type JsonSchema = Record<string, unknown>;

/** JSON Schema (draft 2020-12) of a zod contract, as a request (`input`) or an answer (`output`). */
function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

const WHERE: Partial<Record<InputTarget, string>> = { param: 'path', query: 'query', header: 'header' };

function parameters(route: DocumentedRoute) {
  return (['param', 'query', 'header'] as const).flatMap((target) => {
    const schema = route.inputs[target];
    if (!(schema instanceof z.ZodObject)) return [];
    return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => ({
      name,
      in: WHERE[target],
      required: target === 'param' || !field.safeParse(undefined).success,
      schema: schemaOf(field, 'input'),
    }));
  });
}

const errorRef = { $ref: '#/components/schemas/Error' };

function responses(route: DocumentedRoute) {
  const answers: Record<string, unknown> = {};
  const error = (description: string) => ({
    description,
    content: { 'application/json': { schema: errorRef } },
  });
  for (const [status, answer] of Object.entries(route.description.responses)) {
    const failure = Number(status) >= 400;
    const schema = failure ? errorRef : answer.schema && schemaOf(answer.schema, 'output');
    const binary = !failure && answer.contentType;
    const csv = !failure && answer.csv;
    answers[status] = {
      description: csv ? `${answer.description}. ${csv}` : answer.description,
      ...(schema && {
        content: {
          'application/json': { schema },
          ...(csv && { 'text/csv': { schema: { type: 'string', contentMediaType: 'text/csv' } } }),
        },
      }),
      ...(binary && { content: { [binary]: { schema: { type: 'string', contentMediaType: binary } } } }),
    };
    if (csv) answers['406'] ??= error('The `Accept` header allows neither `application/json` nor `text/csv`');
  }
  if (Object.keys(route.inputs).length > 0) answers['400'] ??= error('Bad input; `field` names it');
  if (route.security.length > 0) answers['401'] ??= error('Missing or bad credentials');
  return answers;
}

const SECURITY_SCHEMES: Record<DocumentScheme, Record<string, string>> = {
  apiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'api-key',
    description:
      "The deployment's API key, sent with a signed-in access token on configuration calls (the monitoring service never asks for it). A personal key stands in for both.",
  },
  bearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: "A signed-in access token of this service (15 minutes; the app's own sign-in).",
  },
  personalKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'fm_pat_…',
    description:
      "A personal API key (Account → API keys) as `Authorization: Bearer fm_pat_…`: all a call to either service needs. It acts with its owner's rights as they are at that moment; a read key may only GET. Rate limited per key (`x-rate-limit`): 429 with `Retry-After`, `RateLimit-Policy` and `RateLimit`.",
  },
  linkKey: { type: 'http', scheme: 'basic' },
};

/**
 * Where a personal key is offered: calls made as a signed-in person (an access token, with or
 * without the `api-key` header). Sign-in itself and the other public calls have no use for one.
 */
const keyStandsIn = (security: readonly SecurityScheme[]) =>
  security.includes('bearer') && security.every((scheme) => scheme === 'apiKey' || scheme === 'bearer');

/** The limits a call counts against, as the `x-rate-limit` extension lists them. */
function rateLimits(route: DocumentedRoute, keyRateLimit: number) {
  const limits: { per: string; limit: number; windowSeconds: number }[] = (
    route.description.limits ?? []
  ).map((name) => ({
    per: name,
    limit: REQUEST_LIMITS[name].limit,
    windowSeconds: REQUEST_LIMITS[name].windowSeconds,
  }));
  if (keyStandsIn(route.security))
    limits.push({ per: 'personalKey', limit: keyRateLimit, windowSeconds: 60 });
  return limits;
}

/**
 * The OpenAPI 3.1 document of one service, generated from the routes the service registered: the
 * same zod schemas its validators check with (zod 4's `z.toJSONSchema`) and the guards it mounted,
 * so the document cannot drift from the code.
 */
export function openApiDocument(
  service: ServiceName,
  // biome-ignore lint/suspicious/noExplicitAny: any app's variables
  app: Hono<any>,
  keyRateLimit: number,
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const schemes = new Set<DocumentScheme>();
  for (const route of documentedRoutes(app)) {
    for (const scheme of route.security) schemes.add(scheme);
    if (keyStandsIn(route.security)) schemes.add('personalKey');
    const body = route.inputs.json;
    const binaryBody = route.description.binaryBody;
    const limits = rateLimits(route, keyRateLimit);
    const operation = {
      summary: route.description.summary,
      ...(route.description.details && { description: route.description.details }),
      tags: [route.description.tag],
      operationId: `${route.method}${route.path.replace(/[^A-Za-z0-9]+(.)?/g, (_, ch = '') => ch.toUpperCase())}`,
      security:
        route.security.length > 0
          ? [
              Object.fromEntries(route.security.map((s) => [s, []])),
              ...(keyStandsIn(route.security) ? [{ personalKey: [] }] : []),
            ]
          : [],
      ...(limits.length > 0 && { 'x-rate-limit': limits }),
      parameters: parameters(route),
      ...(body && {
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: schemaOf(body, 'input'),
              ...(route.description.example && { example: route.description.example }),
            },
          },
        },
      }),
      ...(binaryBody && {
        requestBody: {
          required: true,
          description: binaryBody.description,
          content: {
            [binaryBody.contentType]: {
              schema: { type: 'string', contentMediaType: binaryBody.contentType },
            },
          },
        },
      }),
      responses: responses(route),
    };
    paths[route.path] = { ...paths[route.path], [route.method]: operation };
  }
  return {
    openapi: '3.1.0',
    info: { title: TITLES[service], version: '1.0.0' },
    servers: [{ url: SERVICE_MOUNTS[service] }],
    paths,
    components: {
      schemas: { Error: schemaOf(errorBodySchema, 'output') },
      securitySchemes: Object.fromEntries(
        [...schemes].sort().map((scheme) => [scheme, SECURITY_SCHEMES[scheme]]),
      ),
    },
  };
}

/**
 * `GET /openapi.json` of a service (mount it at `/openapi.json`): the document of `app`, built
 * from its routes at the first request, when every route is registered.
 */
export function openApiRoute(
  service: ServiceName,
  // biome-ignore lint/suspicious/noExplicitAny: any app's variables
  app: Hono<any>,
  keyRateLimit: number,
): Hono {
  const route = new Hono();
  let document: string | undefined;
  route.get(
    '/',
    describeRoute({
      summary: 'This document',
      tag: 'meta',
      responses: { 200: { description: 'OpenAPI 3.1 document' } },
    }),
    (c) => {
      document ??= JSON.stringify(openApiDocument(service, app, keyRateLimit));
      return c.body(document, 200, { 'content-type': 'application/json' });
    },
  );
  return route;
}
