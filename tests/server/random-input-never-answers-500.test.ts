import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../contracts/auth.ts';
import { SERVICE_MOUNTS, SERVICE_NAMES } from '../../contracts/services.ts';
import { type DocumentedCall, documentedCalls } from './documented-calls.ts';
import { IDS, startTestServer } from './harness.ts';

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
/** A device every token of the admin (index 0) may configure: where fixed cases write. */
let serial = '';
/** A device of the owner's site that installer A may move, rename, replace and take off. */
let deviceId = 0;
beforeAll(async () => {
  serial = (
    await t.server.ctx.db.selectFrom('devices').select('serial').orderBy('id').executeTakeFirstOrThrow()
  ).serial;
  deviceId = (
    await t.server.ctx.db
      .insertInto('devices')
      .values({
        model_id: 'HX-5000',
        serial: 'HX5K-27-009999',
        name: 'Random input',
        site_id: IDS.siteOfOwner,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
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

/**
 * Date-time text as ISO 8601 writes it, over the whole range a client can write: years 0 to 9999
 * (and past), and offsets up to ±23:59, where PostgreSQL's own ranges end sooner.
 */
const isoDateText = fc
  .record({
    year: fc.oneof(
      { arbitrary: fc.constantFrom(0, 1, 1969, 2026, 9999), weight: 3 },
      fc.integer({ min: 0, max: 9999 }),
    ),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
    time: fc.integer({ min: 0, max: 86_399 }),
    offset: fc.oneof(
      fc.constant('Z'),
      fc
        .record({
          sign: fc.constantFrom('+', '-'),
          hours: fc.oneof(
            { arbitrary: fc.constantFrom(0, 14, 15, 16, 23), weight: 2 },
            fc.integer({ min: 0, max: 23 }),
          ),
          minutes: fc.constantFrom(0, 30, 59),
        })
        .map(
          ({ sign, hours, minutes }) =>
            `${sign}${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`,
        ),
    ),
  })
  .map(({ year, month, day, time, offset }) => {
    const two = (n: number) => String(n).padStart(2, '0');
    const clock = `${two(Math.floor(time / 3600))}:${two(Math.floor(time / 60) % 60)}:${two(time % 60)}`;
    return `${String(year).padStart(4, '0')}-${two(month)}-${two(day)}T${clock}${offset}`;
  });

/** Text PostgreSQL cannot store (lone surrogates), among characters it can. */
const unstorableText = fc.string({
  unit: fc.constantFrom('a', ' ', '€', '\ud800', '\udc00'),
  minLength: 1,
  maxLength: 8,
});

/** Text of any code points, NUL and lone surrogates included, and text of awkward characters. */
const anyText = fc.oneof(
  isoDateText,
  {
    arbitrary: fc.string({
      unit: fc.constantFrom('a', ' ', '\u0000', '\ud800', '\udfff', '😀', '€', '\n'),
      maxLength: 12,
    }),
    weight: 2,
  },
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

/** The paths of every leaf of a JSON value (`['changes', 0, 'label']`). */
function leaves(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((item, i) => leaves(item, [...path, i]));
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([key, item]) => leaves(item, [...path, key]));
  return [path];
}

/** `value` with the leaf at `path` replaced. */
function replaced(value: unknown, path: (string | number)[], leaf: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return leaf;
  if (Array.isArray(value)) {
    const copy: unknown[] = [...value];
    copy[Number(head)] = replaced(copy[Number(head)], rest, leaf);
    return copy;
  }
  const copy = { ...(value as Record<string, unknown>) };
  copy[head] = replaced(copy[head], rest, leaf);
  return copy;
}

/** A value for a leaf that held `original`: mostly of its own kind (a date for a date), or any JSON. */
function leafLike(original: unknown): fc.Arbitrary<unknown> {
  if (typeof original === 'string' && !Number.isNaN(Date.parse(original)))
    return fc.oneof({ arbitrary: isoDateText, weight: 4 }, anyText, json);
  if (typeof original === 'string')
    return fc.oneof({ arbitrary: anyText, weight: 3 }, { arbitrary: unstorableText, weight: 2 }, json);
  return fc.oneof(awkwardNumber, json);
}

/** A valid body with one leaf, however deep (`changes.0.label`), replaced by a value of its kind or any JSON. */
function deepMutation(example: Record<string, unknown>): fc.Arbitrary<unknown> {
  const at = (path: (string | number)[]) =>
    path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], example);
  return fc
    .constantFrom(...leaves(example))
    .chain((path) => leafLike(at(path)).map((leaf) => replaced(example, path, leaf)));
}

/**
 * A valid body with one leaf (however deep) replaced by a value of its kind or any JSON, one
 * top-level field replaced or removed, or an extra field.
 */
function mutatedExample(example: Record<string, unknown>) {
  const keys = Object.keys(example);
  return fc.oneof(
    { arbitrary: deepMutation(example), weight: 3 },
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

/**
 * Path parameters that name something that exists and that the admin (token 0) or installer A
 * (token 1) may change, by name, so that a mutated body gets past the path and the permission
 * check to the code that stores it. Users and sites of the owner, never the callers themselves
 * (a changed e-mail would end the callers' sessions for every later call).
 */
const KNOWN: Record<string, () => string> = {
  serial: () => serial,
  id: () => String(IDS.owner),
  userId: () => String(IDS.installerA),
  siteId: () => String(IDS.siteOfOwner),
  deviceId: () => String(deviceId),
  a: () => String(IDS.owner),
  b: () => String(IDS.installerA),
  page: () => '0',
  role: () => 'owner',
};

/** A call that reaches the handler: known path parameters, a signed-in caller, a body one leaf off its example. */
function focusedCallOf(route: DocumentedCall, example: Record<string, unknown>): fc.Arbitrary<Call> {
  const path = route.params.reduce(
    (built, name) => built.replace(`{${name}}`, encodeURIComponent(KNOWN[name]?.() ?? '1')),
    route.path,
  );
  return fc.record({
    path: fc.constant(path),
    query: fc.constant({}),
    headers: fc.constant({}),
    body: deepMutation(example).map((value) => JSON.stringify(value)),
    token: fc.constantFrom(0, 1),
  });
}

function callOf(route: DocumentedCall): fc.Arbitrary<Call> {
  const random = randomCallOf(route);
  return route.example && route.body
    ? fc.oneof(random, { arbitrary: focusedCallOf(route, route.example), weight: 2 })
    : random;
}

function randomCallOf(route: DocumentedCall): fc.Arbitrary<Call> {
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

/**
 * Inputs that answered 500 once, kept as fixed cases that run before the random ones, by call.
 * PostgreSQL has no year 0 and no offset past ±15:59, and `jsonb` holds no lone surrogate.
 */
function fixedCases(call: string, example: Record<string, unknown> | undefined): [Call][] {
  // A move to the site the device is on already changed nothing, and the empty update was SQL's error.
  if (call === 'PUT /fleet/installs/{deviceId}')
    return [
      [
        {
          path: `/fleet/installs/${deviceId}`,
          query: {},
          headers: {},
          body: JSON.stringify({ siteId: IDS.siteOfOwner }),
          token: 1,
        },
      ],
    ];
  if (call !== 'POST /fleet/devices/{serial}/config-history' || !example) return [];
  const base = { path: `/fleet/devices/${serial}/config-history`, query: {}, headers: {}, token: 0 };
  const body = (overrides: Record<string, unknown>) => JSON.stringify({ ...example, ...overrides });
  return [
    [{ ...base, body: body({ writtenAt: '0000-01-01T00:00:00Z' }) }],
    [{ ...base, body: body({ writtenAt: '2026-03-04T13:05:00+23:59' }) }],
    [
      {
        ...base,
        body: body({
          changes: [
            { field: 'maxChargeCurrent', label: 'Max \ud800 current', oldValue: '40', newValue: '35' },
          ],
        }),
      },
    ],
  ];
}

describe.each(SERVICE_NAMES)('random input to the %s service', (service) => {
  it.each(calls.filter((route) => route.service === service).map((route) => [route.call, route] as const))(
    '%s never answers 500, and every failure is {message, code}',
    async (name, route) => {
      await fc.assert(
        fc.asyncProperty(callOf(route), async (call) => {
          const answer = await send(route, call);
          // A live stream that opened never ends by itself: its status is the answer.
          if (answer.headers.get('content-type')?.startsWith('text/event-stream')) {
            await answer.body?.cancel();
            expect(answer.status).toBe(200);
            return;
          }
          const text = await answer.text();
          expect(answer.status, text).toBeLessThan(500);
          if (answer.status >= 400)
            expect(errorBodySchema.safeParse(JSON.parse(text)).success, text).toBe(true);
        }),
        { numRuns: RUNS, examples: fixedCases(name, route.example) },
      );
    },
  );
});
