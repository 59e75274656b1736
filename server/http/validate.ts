import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError, validationError } from './errors.ts';

/** Parse the JSON body with a schema; a bad body is a 400 naming the field. */
export async function readBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  let raw: unknown;
  try {
    const text = await c.req.text();
    raw = text === '' ? {} : JSON.parse(text);
  } catch {
    throw new ApiError(400, 'invalid_json', 'The body is not valid JSON');
  }
  const result = schema.safeParse(raw);
  if (!result.success) throw validationError(result.error, 'body');
  return result.data;
}

/** Parse any record (path params, query, headers) with a schema; failure is a 400. */
export function readInput<S extends z.ZodType>(value: unknown, schema: S, where: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, where);
  return result.data;
}
