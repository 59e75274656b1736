import { z } from 'zod';

/** A numeric id in a path. */
export const idParam = z.coerce.number().int().positive().max(2_147_483_647);
