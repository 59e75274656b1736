import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../contracts/auth.ts';
import { SERVICE_MOUNTS, SERVICE_NAMES } from '../../contracts/services.ts';
import { type DocumentedCall, documentedCalls } from './documented-calls.ts';
import { startTestServer } from './harness.ts';

/**
 * Random input at every documented call, on the real app in process (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL): random JSON at every body, random strings at every path parameter, query
 * parameter and header. No answer may be a 500. The run count is kept modest (every call runs
 * RUNS times) so the suite stays quick on a two-core machine; raise it locally to search harder.
 */
const RUNS = 50;

// Started while the file is collected: the calls to test are read from the served documents.
const t = await startTestServer();
const calls = await documentedCalls(t);
let tokens: string[];
beforeAll(async () => {
  const admin = (await t.login('admin')).access_token;
  const monitoring = await t.call('POST', '/monitoring/auth/v2/configurator-login', {
    body: { username: 'admin@fleet.example', access_token: admin },
  });
  // Configuration tokens of two roles, and a monitoring token; the last index sends none.
  tokens = [
    admin,
    (await t.login('installerA')).access_token,
    (monitoring.body as { access_token: string }).access_token,
  ];
});
afterAll(() => t.close());

/** Numbers a database or a parser trips over: past 32 bits, past 2^53, fractions, extremes. */
const awkwardNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -1, 2_147_483_647, 2_147_483_648, -2_147_483_649, 2 ** 53, 1e20, 1e308, -1e308, 0.5),
);

/** Text of any code points, NUL and lone surrogates included, and text of awkward characters. */
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({
    unit: fc.constantFrom('a', '7', ' ', '\u0000', '%', '_', '\\', "'", '-', '@', '😀', '\ud800'),
    maxLength: 12,
  }),
  fc.constantFrom('', 'HX5K-24-000123', 'admin@fleet.example'),
);

/** A path, query or header value: mostly text, sometimes a number written out. */
const anySegment = fc.oneof(
  anyText,
  awkwardNumber.map(String),
  fc.bigInt().map(String),
  fc.nat(200).map(String),
);

const { json } = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    { arbitrary: awkwardNumber, weight: 3 },
    { arbitrary: anyText, weight: 3 },
    fc.array(tie('json'), { maxLength: 4 }),
    fc.dictionary(anyText, tie('json'), { maxKeys: 4 }),
  ),
}));

/** A valid body with one field replaced by any JSON value, or with an extra field. */
function mutatedExample(example: Record<string, unknown>) {
  const keys = Object.keys(example);
  return fc.oneof(
    fc
      .record({ key: fc.constantFrom(...keys), value: json })
      .map(({ key, value }) => ({ ...example, [key]: value })),
    fc.record({ key: fc.constantFrom(...keys) }).map(({ key }) => {
      const { [key]: _, ...rest } = example;
      return rest;
    }),
    fc.record({ key: anyText, value: json }).map(({ key, value }) => ({ ...example, [key]: value })),
  );
}

/**
 * A path segment as a client would write it: encoded text (lone surrogates become U+FFFD, as a
 * UTF-8 encoder makes them), or raw escapes that do not decode.
 */
const pathSegment = fc.oneof(
  { arbitrary: anySegment.map((value) => encodeURIComponent(Buffer.from(value).toString())), weight: 5 },
  fc.constantFrom('%FF', '%E0%A4%A', '%', '%00', '%2F', '.', '..'),
);

/** A header value fetch can carry: printable ASCII only. */
const headerValue = anySegment.map((value) => value.replace(/[^\x20-\x7e]/g, '').trim());

interface Call {
  path: string;
  query: Record<string, string | undefined>;
  headers: Record<string, string | undefined>;
  body: string | undefined;
  token: number;
}

function callOf(route: DocumentedCall): fc.Arbitrary<Call> {
  const { params } = route;
  const path = fc
    .tuple(...params.map(() => pathSegment))
    .map((values) =>
      values.reduce<string>((built, value, i) => built.replace(`{${params[i]}}`, value), route.path),
    );
  const optional = (names: string[], value: fc.Arbitrary<string>) =>
    fc.record(Object.fromEntries(names.map((name) => [name, fc.option(value, { nil: undefined })])));
  const body = route.body
    ? fc.oneof(
        json.map((value) => JSON.stringify(value)),
        fc.string({ maxLength: 20 }),
        ...(route.example
          ? [{ arbitrary: mutatedExample(route.example).map((value) => JSON.stringify(value)), weight: 4 }]
          : []),
      )
    : fc.constant(undefined);
  return fc.record({
    path: params.length > 0 ? path : fc.constant(route.path),
    query: optional(route.query, anySegment),
    headers: optional(route.headers, headerValue),
    body,
    token: fc.nat(tokens.length),
  });
}

async function send(route: DocumentedCall, call: Call) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(call.query)) if (value !== undefined) search.set(name, value);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'api-key': t.server.ctx.env.API_KEY,
  };
  for (const [name, value] of Object.entries(call.headers)) if (value !== undefined) headers[name] = value;
  const token = tokens[call.token];
  if (token) headers.authorization = `Bearer ${token}`;
  const query = search.size > 0 ? `?${search}` : '';
  return t.server.app.request(`${SERVICE_MOUNTS[route.service]}${call.path}${query}`, {
    method: route.method.toUpperCase(),
    headers,
    body: call.body,
  });
}

describe.each(SERVICE_NAMES)('random input to the %s service', (service) => {
  it.each(calls.filter((route) => route.service === service).map((route) => [route.call, route] as const))(
    '%s never answers 500, and every failure is {message, code}',
    async (_, route) => {
      await fc.assert(
        fc.asyncProperty(callOf(route), async (call) => {
          const answer = await send(route, call);
          const text = await answer.text();
          expect(answer.status, text).toBeLessThan(500);
          if (answer.status >= 400)
            expect(errorBodySchema.safeParse(JSON.parse(text)).success, text).toBe(true);
        }),
        { numRuns: RUNS },
      );
    },
  );
});
