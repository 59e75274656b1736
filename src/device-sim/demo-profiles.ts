import { type DemoSiteSize, type DemoSiteState, demoSiteAt } from './day-curve.ts';

/** Live values of a product at a moment, in display units, by item name. */
type Profile = (state: DemoSiteState, display: (name: string) => number) => Record<string, number>;

interface ProductProfile {
  size: DemoSiteSize;
  values: Profile;
}

/**
 * How each bundled product's live values follow its installation's day (day-curve.ts): the items
 * named here are computed from the day's powers, charge and energy, consistently (a current is the
 * power over its voltage, the grid makes up the balance); every other live item keeps its small
 * swing around its default (live-values.ts). A product without a profile only swings.
 */
const PROFILES: Readonly<Record<string, ProductProfile>> = {
  hybrid5k: {
    size: { peakW: 5000, batteryWh: 10_000 },
    values: (s, display) => ({
      pvPower: s.production,
      pvCurrent: s.production / display('pvVoltage'),
      loadPower: s.consumption,
      gridPower: s.grid,
      batterySoc: s.soc,
      batteryCurrent: s.battery / display('batteryVoltage'),
      inverterTemp: 32 + (14 * s.production) / 5000,
      energyToday: s.producedTodayKwh,
      energyTotal: 18_342.7 + s.producedKwh,
    }),
  },
  battery10: {
    size: { peakW: 0, batteryWh: 10_000 },
    values: (s, display) => ({
      soc: s.soc,
      packCurrent: s.battery / display('packVoltage'),
      remainingCapacity: (display('fullCapacity') * s.soc) / 100,
      chargeEnergyTotal: 2140.6 + s.chargedKwh,
    }),
  },
  e1mppt40: {
    size: { peakW: 1100, batteryWh: 0 },
    values: (s, display) => ({
      pvCurrent: s.production / display('pvVoltage'),
      chargePower: 0.96 * s.production,
      chargeCurrent: (0.96 * s.production) / display('batteryVoltage'),
      yieldToday: s.producedTodayKwh,
      yieldTotal: 4821.3 + s.producedKwh,
    }),
  },
};

/**
 * The live values (display units) a bundled product's profile sets at `ms`, by item name; empty for
 * a product without one. `display` reads the device's other values of the moment (voltages).
 * @example profileValues('hybrid5k', 'HX5K-24-000133', Date.now(), (n) => values[n]).pvPower
 */
export function profileValues(
  productKey: string,
  serial: string,
  ms: number,
  display: (name: string) => number,
): Record<string, number> {
  const profile = PROFILES[productKey];
  return profile ? profile.values(demoSiteAt(serial, ms, profile.size), display) : {};
}
