import { Hono } from 'hono';
import { z } from 'zod';
import { errorBodySchema } from '../../contracts/auth.ts';
import { isServiceCommsPath, SERVICE_MOUNTS, type ServiceName } from '../../contracts/services.ts';
import { CONFIG_ROUTES } from './config-routes.ts';
import { MONITORING_ROUTES } from './monitoring-routes.ts';
import type { RouteDoc } from './route-doc.ts';

/** The documented calls of each service. */
export const SERVICE_ROUTES: Readonly<Record<ServiceName, readonly RouteDoc[]>> = {
  config: CONFIG_ROUTES,
  monitoring: MONITORING_ROUTES,
};

const TITLES: Record<ServiceName, string> = {
  config: 'Fleet Manager configuration service',
  monitoring: 'Fleet Manager monitoring service',
};

type JsonSchema = Record<string, unknown>;

/** JSON Schema (draft 2020-12) of a zod contract, as a request (`input`) or an answer (`output`). */
function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

function parameters(route: RouteDoc) {
  const group = (where: 'path' | 'query' | 'header', shape: Record<string, z.ZodType> = {}) =>
    Object.entries(shape).map(([name, schema]) => ({
      name,
      in: where,
      required: where === 'path' || !schema.safeParse(undefined).success,
      schema: schemaOf(schema, 'input'),
    }));
  return [...group('path', route.params), ...group('query', route.query), ...group('header', route.headers)];
}

function security(service: ServiceName, route: RouteDoc) {
  if (route.auth === 'open') return [];
  if (route.auth === 'basic') return [{ linkKey: [] }];
  // Specification §7: no api-key on the /service-comms paths, only the Bearer token.
  const apiKey = service === 'config' && !isServiceCommsPath(route.path) ? { apiKey: [] } : {};
  return [route.auth === 'bearer' ? { ...apiKey, bearer: [] } : apiKey];
}

const errorRef = { $ref: '#/components/schemas/Error' };

function responses(service: ServiceName, route: RouteDoc) {
  const answers: Record<string, unknown> = {};
  for (const [status, answer] of Object.entries(route.responses)) {
    const failure = Number(status) >= 400;
    const schema = failure ? errorRef : answer.schema && schemaOf(answer.schema, 'output');
    answers[status] = {
      description: answer.description,
      ...(schema && { content: { 'application/json': { schema } } }),
    };
  }
  const takesInput = route.params || route.query || route.headers || route.body;
  const error = (description: string) => ({
    description,
    content: { 'application/json': { schema: errorRef } },
  });
  if (takesInput) answers['400'] ??= error('Bad input; `field` names it');
  if (security(service, route).length > 0) answers['401'] ??= error('Missing or bad credentials');
  return answers;
}

/**
 * The OpenAPI 3.1 document of one service, generated from the same zod contracts the server
 * validates with (zod 4's `z.toJSONSchema`), so the two cannot drift apart.
 */
export function openApiDocument(service: ServiceName): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of SERVICE_ROUTES[service]) {
    const operation = {
      summary: route.summary,
      tags: [route.tag],
      operationId: `${route.method}${route.path.replace(/[^A-Za-z0-9]+(.)?/g, (_, ch = '') => ch.toUpperCase())}`,
      security: security(service, route),
      parameters: parameters(route),
      ...(route.body && {
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: schemaOf(route.body, 'input'),
              ...(route.example && { example: route.example }),
            },
          },
        },
      }),
      responses: responses(service, route),
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
      securitySchemes: {
        ...(service === 'config' && { apiKey: { type: 'apiKey', in: 'header', name: 'api-key' } }),
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        ...(service === 'config' && { linkKey: { type: 'http', scheme: 'basic' } }),
      },
    },
  };
}

/** `GET /openapi.json` of a service: the document, built once. */
export function openApiRoute(service: ServiceName): Hono {
  const document = JSON.stringify(openApiDocument(service));
  const app = new Hono();
  app.get('/openapi.json', (c) => c.body(document, 200, { 'content-type': 'application/json' }));
  return app;
}
