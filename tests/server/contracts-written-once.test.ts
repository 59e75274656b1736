import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installDeviceQuerySchema } from '../../contracts/devices.ts';
import { devicesListSchema, serialNumberPattern } from '../../contracts/devices-list.ts';
import { isServiceCommsPath, SERVICE_MOUNTS, SERVICE_NAMES } from '../../contracts/services.ts';
import { SERVICE_ROUTES } from '../../server/openapi/openapi-document.ts';
import type { RouteDoc } from '../../server/openapi/route-doc.ts';
import { needsApiKey, needsBearer } from '../../src/api/header-rules.ts';
import { startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/** A documented path with every parameter filled in. */
const concrete = (route: RouteDoc) =>
  route.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    name === 'role' ? 'owner' : name === 'id' ? '1' : '1',
  );

/** The calls the app makes through its header rules: everything but the devices list and the documents. */
const appCalls = SERVICE_NAMES.flatMap((service) =>
  SERVICE_ROUTES[service]
    .filter((route) => route.auth === 'bearer' || route.auth === 'public')
    .map((route) => [service, `${route.method.toUpperCase()} ${route.path}`, route] as const),
);

describe("the app's header rules and the services read one list of public paths", () => {
  it.each(appCalls)('%s %s: the app sends what the service asks for', (service, _, route) => {
    const path = concrete(route);
    expect(needsBearer(path)).toBe(route.auth === 'bearer');
    // Specification §7: every configuration path but those containing /service-comms.
    expect(needsApiKey(service, path)).toBe(service === 'config' && !isServiceCommsPath(path));
  });

  it.each(appCalls)(
    '%s %s: the service asks for a Bearer exactly where the app sends one',
    async (service, _, route) => {
      const path = `${SERVICE_MOUNTS[service]}${concrete(route)}`;
      const answer = await t.call(route.method.toUpperCase(), path, {
        body: route.method === 'get' ? undefined : {},
      });
      const missing = (answer.body as { code?: string } | null)?.code === 'token_missing';
      expect(missing, `${answer.status} ${JSON.stringify(answer.body)}`).toBe(needsBearer(concrete(route)));
    },
  );

  it('asks for the api-key on every configuration call but the open ones', async () => {
    for (const route of SERVICE_ROUTES.config) {
      const answer = await t.call(route.method.toUpperCase(), `/config${concrete(route)}`, { apiKey: null });
      const missing = (answer.body as { code?: string } | null)?.code === 'api_key_missing';
      const asked = (route.auth === 'bearer' || route.auth === 'public') && !isServiceCommsPath(route.path);
      expect(missing, route.path).toBe(asked);
    }
  });
});

describe('one serial-number pattern', () => {
  it('the device query accepts exactly the serials the devices-list pattern accepts', () => {
    const serialLike = fc.oneof(
      fc.stringMatching(serialNumberPattern),
      fc.stringMatching(/^[A-Z0-9-]{1,20}$/),
      fc.string({ maxLength: 20 }),
    );
    fc.assert(
      fc.property(serialLike, (serial) => {
        const accepted = installDeviceQuerySchema.safeParse({ serial }).success;
        expect(accepted).toBe(serialNumberPattern.test(serial.trim()));
      }),
      { numRuns: 300 },
    );
  });

  it("fits every bundled model's serial prefix", () => {
    for (const file of ['public/devices-list.json', 'public/devices-list-e1.json']) {
      const list = devicesListSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
      for (const entry of Object.values(list.devicesList)) {
        const serial = `${entry.serialPrefix}-24-000123`;
        expect(serialNumberPattern.test(serial)).toBe(true);
        expect(installDeviceQuerySchema.safeParse({ serial }).success).toBe(true);
      }
    }
  });
});
