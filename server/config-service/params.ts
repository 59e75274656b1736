import { z } from 'zod';
import { idParamSchema } from '../../contracts/ids.ts';

/** A path whose one parameter is a row id, `{id}`: 1 to 2^31 − 1, the range of the id columns. */
export const idParams = z.object({ id: idParamSchema });
