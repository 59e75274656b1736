import { regionCode } from '../time-zones/site-zone.ts';

/** A grid's nominal voltage (what a single inverter sees) and frequency. */
export interface Mains {
  volts: number;
  hertz: number;
}

/** Most of the world: 230 V, 50 Hz. */
const USUAL: Mains = { volts: 230, hertz: 50 };

/**
 * Grids that differ from 230 V 50 Hz. North America's homes have split-phase 120/240 V: an inverter
 * is connected across both legs and reads 240 V.
 */
const MAINS: Readonly<Record<string, Mains>> = {
  US: { volts: 240, hertz: 60 },
  CA: { volts: 240, hertz: 60 },
  PR: { volts: 240, hertz: 60 },
  MX: { volts: 127, hertz: 60 },
  CO: { volts: 120, hertz: 60 },
  EC: { volts: 120, hertz: 60 },
  VE: { volts: 120, hertz: 60 },
  PA: { volts: 120, hertz: 60 },
  BR: { volts: 220, hertz: 60 },
  PE: { volts: 220, hertz: 60 },
  PH: { volts: 220, hertz: 60 },
  KR: { volts: 220, hertz: 60 },
  SA: { volts: 230, hertz: 60 },
  TW: { volts: 110, hertz: 60 },
  JP: { volts: 100, hertz: 60 },
};

/**
 * The mains of a country (two-letter code or English name) at a longitude: Japan runs 50 Hz east
 * of the Fuji river (about 138.5° E) and 60 Hz west of it. Unknown countries get 230 V 50 Hz.
 * @example mainsOf('US', -97.7) // { volts: 240, hertz: 60 }
 */
export function mainsOf(country: string, longitude: number): Mains {
  const code = regionCode(country);
  const mains = (code && MAINS[code]) || USUAL;
  return code === 'JP' && longitude > 138.5 ? { ...mains, hertz: 50 } : mains;
}
