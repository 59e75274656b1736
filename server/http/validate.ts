import type { Context, MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { type InputTarget, withNote } from '../openapi/route-notes.ts';
import { ApiError, validationError } from './errors.ts';

/** Text PostgreSQL cannot hold: a NUL character, or a lone UTF-16 surrogate (`\ud800`). */
function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain a NUL character';
  // In a `u` regex a surrogate pair is one code point: only a lone surrogate matches.
  if (/\p{Cs}/u.test(text)) return 'must be well-formed text (a lone surrogate such as \\ud800 is not)';
  return undefined;
}

/**
 * The path of the first string (or key) inside a JSON value that PostgreSQL cannot hold, and
 * why: a NUL character (text cannot hold one), or a lone surrogate (neither UTF-8 text nor
 * `jsonb` can). Such a value must be refused here, naming its field, before it can reach a query
 * and fail there. Walks with its own stack: a 64 KiB body can nest 30,000 deep.
 */
export function findBadText(value: unknown): { path: string[]; problem: string } | undefined {
  interface Step {
    value: unknown;
    key?: string;
    parent?: Step;
  }
  const pathOf = (step: Step | undefined, last?: string): string[] => {
    const path = last === undefined ? [] : [last];
    for (let at = step; at?.key !== undefined; at = at.parent) path.unshift(at.key);
    return path;
  };
  const pending: Step[] = [{ value }];
  for (let step = pending.pop(); step; step = pending.pop()) {
    if (typeof step.value === 'string') {
      const problem = textProblem(step.value);
      if (problem) return { path: pathOf(step), problem };
    } else if (step.value !== null && typeof step.value === 'object') {
      const entries = Object.entries(step.value);
      // Pushed in reverse, so the first field is looked at first.
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i] as [string, unknown];
        const problem = textProblem(key);
        if (problem) return { path: pathOf(step, key), problem };
        pending.push({ value: item, key, parent: step });
      }
    }
  }
  return undefined;
}

/**
 * Check a value with a schema: text PostgreSQL cannot hold (a NUL character, a lone surrogate)
 * anywhere is refused first, then the schema's first issue. `where` names the failure when the
 * issue is about the value as a whole.
 * @throws {ApiError} 400 `invalid_input` naming the field.
 */
export function parseInput<S extends z.ZodType>(value: unknown, schema: S, where: string): z.output<S> {
  const bad = findBadText(value);
  if (bad) {
    const field = bad.path.join('.') || where;
    throw new ApiError(400, 'invalid_input', `${field}: ${bad.problem}`, field);
  }
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, where);
  return result.data;
}

/** The JSON body, whatever the content type says: an empty body is `{}`. */
async function readJson(c: Context): Promise<unknown> {
  try {
    const text = await c.req.text();
    return text === '' ? {} : JSON.parse(text);
  } catch {
    throw new ApiError(400, 'invalid_json', 'The body is not valid JSON');
  }
}

/** The query's values (the first of a repeated name); an empty value counts as none. */
function readQuery(c: Context): Record<string, string> {
  return Object.fromEntries(Object.entries(c.req.query()).filter(([, value]) => value !== ''));
}

/**
 * The headers the schema names. A name with `_` is also read with `-` instead, since some proxies
 * drop headers whose names hold an underscore.
 */
function readHeaders(c: Context, schema: z.ZodType): Record<string, string | undefined> {
  if (!(schema instanceof z.ZodObject)) throw new Error('A header schema is an object of header names');
  return Object.fromEntries(
    Object.keys(schema.shape).map((name) => [
      name,
      c.req.header(name) ?? c.req.header(name.replace(/_/g, '-')),
    ]),
  );
}

/** How each failure names the input as a whole. */
const WHERE: Record<InputTarget, string> = { json: 'body', param: 'path', query: 'query', header: 'headers' };

/** What `validate` adds to a route's input, as Hono's own validators type it. */
export interface Validated<T extends InputTarget, S extends z.ZodType> {
  in: { [K in T]: z.input<S> };
  out: { [K in T]: z.output<S> };
}

/**
 * Validator middleware: read one input of the request (the JSON body, the path parameters, the
 * query or the named headers), check it with a zod schema and hand the parsed value to the
 * handler as `c.req.valid(target)`. A bad input answers 400 naming the field (`invalid_json` for
 * a body that is not JSON), before the handler runs. The schema also documents the input in the
 * service's OpenAPI document.
 * @example app.put('/:id', validate('param', z.object({ id: idParamSchema })), (c) => c.json(c.req.valid('param')))
 */
export function validate<T extends InputTarget, S extends z.ZodType>(
  target: T,
  schema: S,
  // biome-ignore lint/suspicious/noExplicitAny: fits any app's variables, as Hono's validator does
): MiddlewareHandler<any, string, Validated<T, S>> {
  const read = (c: Context): unknown =>
    target === 'param' ? c.req.param() : target === 'query' ? readQuery(c) : readHeaders(c, schema);
  const middleware: MiddlewareHandler = async (c, next) => {
    const value = target === 'json' ? await readJson(c) : read(c);
    c.req.addValidatedData(target, parseInput(value, schema, WHERE[target]) as object);
    await next();
  };
  return withNote(middleware, { kind: 'input', target, schema });
}
