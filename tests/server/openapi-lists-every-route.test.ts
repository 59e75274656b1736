import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_MOUNTS, SERVICE_NAMES, type ServiceName } from '../../contracts/services.ts';
import { startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
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

interface OpenApiDocument {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, { security: unknown[]; responses: Record<string, unknown> }>>;
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
