import type { DeviceConfig } from '../config-schema.ts';
import { battery10 } from './battery10.ts';
import { e1mppt40 } from './e1mppt40.ts';
import { hybrid5k } from './hybrid5k.ts';

/** The bundled products by product key; `public/{key}-to-form.json` is generated from these. */
export const CATALOGUE: Readonly<Record<string, () => DeviceConfig>> = { hybrid5k, battery10, e1mppt40 };
