import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_MOUNTS, SERVICE_NAMES, type ServiceName } from '../../contracts/services.ts';
import { REQUEST_LIMITS } from '../../server/limits/request-limits.ts';
import { startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
beforeAll(async () => {
  // A key's limit is configuration: the document gives the figure this server runs with.
  t = await startTestServer({ API_KEY_RATE_LIMIT: '240' });
});
afterAll(() => t.close());

/** `METHOD /path/{param}` of every route the running server registered under a service's mount. */
function registeredRoutes(service: ServiceName): string[] {
  const mount = SERVICE_MOUNTS[service];
  const routes = t.server.app.routes
    .filter((route) => route.method !== 'ALL' && route.path.startsWith(`${mount}/`))
    .map((route) => {
      const path = route.path.slice(mount.length).replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      return `${route.method} ${path}`;
    });
  return [...new Set(routes)].sort();
}

interface Operation {
  security: Record<string, string[]>[];
  responses: Record<string, unknown>;
  description?: string;
  'x-rate-limit'?: { per: string; limit: number; windowSeconds: number }[];
}

interface OpenApiDocument {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, Record<string, string>> };
}

async function documentOf(service: ServiceName): Promise<OpenApiDocument> {
  // The document is public: no api-key, no Bearer.
  const answer = await t.call('GET', `${SERVICE_MOUNTS[service]}/openapi.json`, { apiKey: null });
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toMatch(/application\/json/);
  return answer.body as OpenApiDocument;
}

function documentedRoutes(document: OpenApiDocument): string[] {
  return Object.entries(document.paths)
    .flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    )
    .sort();
}

describe.each(SERVICE_NAMES)('the %s service OpenAPI document', (service) => {
  it('is OpenAPI 3.1 served under the service mount', async () => {
    const document = await documentOf(service);
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: SERVICE_MOUNTS[service] }]);
  });

  it('documents every registered route, and every documented route is registered', async () => {
    const registered = registeredRoutes(service);
    expect(registered.length).toBeGreaterThan(3);
    expect(documentedRoutes(await documentOf(service))).toEqual(registered);
  });

  it('describes bodies and answers with the shared contracts', async () => {
    const document = await documentOf(service);
    const login =
      service === 'config'
        ? document.paths['/auth/v2/login']?.post
        : document.paths['/auth/v2/configurator-login']?.post;
    expect(login?.responses['200']).toMatchObject({
      content: { 'application/json': { schema: { required: ['access_token', 'refresh_token'] } } },
    });
    expect(login?.security).toEqual(service === 'config' ? [{ apiKey: [] }] : []);
  });
});

describe('what an integrator with a personal key reads', () => {
  const operations = (document: OpenApiDocument) =>
    Object.entries(document.paths).flatMap(([path, byMethod]) =>
      Object.entries(byMethod).map(([method, operation]) => ({
        call: `${method.toUpperCase()} ${path}`,
        operation,
      })),
    );

  it.each(SERVICE_NAMES)(
    'the %s document declares the schemes its calls use, a personal key among them',
    async (service) => {
      const document = await documentOf(service);
      const schemes = document.components.securitySchemes;
      expect(schemes.personalKey).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'fm_pat_…' });
      expect(schemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
      const used = new Set(
        operations(document).flatMap(({ operation }) =>
          operation.security.flatMap((requirement) => Object.keys(requirement)),
        ),
      );
      expect(Object.keys(schemes).sort()).toEqual([...used].sort());
      // The monitoring service never asks for the api-key header.
      expect('apiKey' in schemes).toBe(service === 'config');
    },
  );

  it.each(SERVICE_NAMES)(
    "every %s call a key may make gives the key's limit as configured",
    async (service) => {
      const offered = operations(await documentOf(service)).filter(({ operation }) =>
        operation.security.some((requirement) => 'personalKey' in requirement),
      );
      expect(offered.length).toBeGreaterThan(4);
      for (const { call, operation } of offered) {
        expect(operation['x-rate-limit'], call).toContainEqual({
          per: 'personalKey',
          limit: 240,
          windowSeconds: 60,
        });
      }
    },
  );

  it("a call with limits of its own gives them beside the key's", async () => {
    const command = (await documentOf('config')).paths['/service-comms/command']?.post;
    expect(command?.['x-rate-limit']).toEqual([
      { per: 'commandPerUser', ...REQUEST_LIMITS.commandPerUser },
      { per: 'commandPerAddress', ...REQUEST_LIMITS.commandPerAddress },
      { per: 'personalKey', limit: 240, windowSeconds: 60 },
    ]);
  });

  it('the five calls integrators make most carry examples in curl and JavaScript', async () => {
    const config = await documentOf('config');
    const monitoring = await documentOf('monitoring');
    const described = [
      config.paths['/fleet/sites/all/{userId}/{page}']?.get,
      monitoring.paths['/devices/{serial}/latest']?.get,
      monitoring.paths['/devices/{serial}/series']?.get,
      monitoring.paths['/alarms/{id}/acknowledge']?.post,
      config.paths['/fleet/webhooks']?.post,
    ].map((operation) => operation?.description ?? '');
    for (const description of described) {
      const blocks = Object.fromEntries(
        [...description.matchAll(/```(sh|js)\n([\s\S]*?)\n```/g)].map(([, language, code]) => [
          language,
          code,
        ]),
      );
      expect(blocks.sh).toMatch(/curl [^\n]*-H "Authorization: Bearer \$KEY"/);
      expect(blocks.js).toMatch(/Authorization: `Bearer \$\{KEY\}`/);
      expect(blocks.js).toContain('await fetch(');
    }
  });
});

describe('the configuration document', () => {
  it('gives the id and ownerId ranges that the server enforces', async () => {
    const document = (await t.call('GET', '/config/openapi.json', { apiKey: null })).body as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    const put = document.paths['/sites/{id}']?.put as {
      parameters: { name: string; schema: unknown }[];
      requestBody: { content: { 'application/json': { schema: { properties: Record<string, unknown> } } } };
    };
    expect(put.parameters).toContainEqual(
      expect.objectContaining({ name: 'id', schema: expect.objectContaining({ maximum: 2_147_483_647 }) }),
    );
    const body = put.requestBody.content['application/json'].schema;
    expect(body.properties.ownerId).toEqual({
      anyOf: [{ type: 'integer', exclusiveMinimum: 0, maximum: 2_147_483_647 }, { type: 'null' }],
    });
    expect((body as { required?: string[] }).required).not.toContain('ownerId');
  });
});
