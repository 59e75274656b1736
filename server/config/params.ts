import { idParamSchema } from '../../contracts/ids.ts';

/** A numeric id in a path: 1 to 2^31 − 1, the range of the database's id columns. */
export const idParam = idParamSchema;
