import { SERVICE_MOUNTS, SERVICE_NAMES, type ServiceName } from '../../contracts/services.ts';
import type { TestServer } from './harness.ts';

/** One call as a service's OpenAPI document describes it. */
export interface DocumentedCall {
  service: ServiceName;
  method: string;
  /** Path inside the service in OpenAPI form, e.g. `/sites/{id}`. */
  path: string;
  /** `METHOD /path`, e.g. `PUT /sites/{id}`. */
  call: string;
  params: string[];
  query: string[];
  headers: string[];
  body: boolean;
  example?: Record<string, unknown>;
  /** The security schemes of the call's guards, e.g. `['apiKey', 'bearer']` (the document's first requirement). */
  security: string[];
  /** Whether the document offers a personal key (`personalKey`) as the alternative to those. */
  personalKey: boolean;
}

interface Operation {
  security: Record<string, string[]>[];
  parameters: { name: string; in: 'path' | 'query' | 'header' }[];
  requestBody?: { content: { 'application/json'?: { example?: Record<string, unknown> } } };
}

/** Every call of both services, read from their served OpenAPI documents (which are public). */
export async function documentedCalls(t: TestServer): Promise<DocumentedCall[]> {
  const calls: DocumentedCall[] = [];
  for (const service of SERVICE_NAMES) {
    const answer = await t.call('GET', `${SERVICE_MOUNTS[service]}/openapi.json`, { apiKey: null });
    const document = answer.body as { paths: Record<string, Record<string, Operation>> };
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const named = (where: string) =>
          operation.parameters
            .filter((parameter) => parameter.in === where)
            .map((parameter) => parameter.name);
        // A binary body (a firmware image) has no JSON example.
        const example = operation.requestBody?.content['application/json']?.example;
        calls.push({
          service,
          method,
          path,
          call: `${method.toUpperCase()} ${path}`,
          params: named('path'),
          query: named('query'),
          headers: named('header'),
          body: operation.requestBody !== undefined,
          ...(example && { example }),
          security: Object.keys(operation.security[0] ?? {}),
          personalKey: operation.security.some((requirement) => 'personalKey' in requirement),
        });
      }
    }
  }
  return calls;
}
