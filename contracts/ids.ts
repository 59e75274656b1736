import { z } from 'zod';

/** Largest id the database holds (`integer` columns): 2^31 − 1. */
export const MAX_ID = 2_147_483_647;

/** A row id in a JSON body: a whole number from 1 to `MAX_ID`. */
export const idSchema = z.number().int().positive().max(MAX_ID, `must be at most ${MAX_ID}`);

/** A row id in a path segment, e.g. the `12` of `/users/12`. */
export const idParamSchema = z.coerce.number().int().positive().max(MAX_ID, `must be at most ${MAX_ID}`);
