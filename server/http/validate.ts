import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError, validationError } from './errors.ts';

/**
 * The path of the first string (or key) holding a NUL character inside a JSON value, or undefined.
 * PostgreSQL text cannot hold NUL: such a value must be refused here, naming its field, before it
 * can reach a query and fail there. Walks with its own stack: a 64 KiB body can nest 30,000 deep.
 */
export function findNul(value: unknown): string[] | undefined {
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
      if (step.value.includes('\u0000')) return pathOf(step);
    } else if (step.value !== null && typeof step.value === 'object') {
      const entries = Object.entries(step.value);
      // Pushed in reverse, so the first field is looked at first.
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i] as [string, unknown];
        if (key.includes('\u0000')) return pathOf(step, key);
        pending.push({ value: item, key, parent: step });
      }
    }
  }
  return undefined;
}

function refuseNul(value: unknown, where: string): void {
  const path = findNul(value);
  if (!path) return;
  const field = path.join('.') || where;
  throw new ApiError(400, 'invalid_input', `${field}: must not contain a NUL character`, field);
}

/**
 * Parse the JSON body with a schema; a bad body is a 400 naming the field.
 * @throws {ApiError} 400 `invalid_json`, or `invalid_input` naming the field.
 */
export async function readBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  let raw: unknown;
  try {
    const text = await c.req.text();
    raw = text === '' ? {} : JSON.parse(text);
  } catch {
    throw new ApiError(400, 'invalid_json', 'The body is not valid JSON');
  }
  refuseNul(raw, 'body');
  const result = schema.safeParse(raw);
  if (!result.success) throw validationError(result.error, 'body');
  return result.data;
}

/**
 * Parse any record (path params, query, headers) with a schema; failure is a 400.
 * @throws {ApiError} 400 `invalid_input` naming the field (`where` for a bare value).
 */
export function readInput<S extends z.ZodType>(value: unknown, schema: S, where: string): z.infer<S> {
  refuseNul(value, where);
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, where);
  return result.data;
}
