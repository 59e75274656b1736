import {
  type DemoPlace,
  type DemoSiteSize,
  type DemoSiteState,
  demoSiteAt,
  placeOfClock,
} from './day-curve.ts';
import { noise } from './live-values.ts';
import { mainsOf } from './mains.ts';

/** What a profile knows of its moment: the installation's state, its place and a device's other values. */
interface Moment {
  state: DemoSiteState;
  place: DemoPlace;
  serial: string;
  ms: number;
  /** A live item's display value of the moment (as it swings around its default). */
  display: (name: string) => number;
}

/** Live values of a product at a moment, in display units, by item name. */
type Profile = (moment: Moment) => Record<string, number>;

interface ProductProfile {
  size: DemoSiteSize;
  values: Profile;
}

/** A wobble of ±`amount` around 1, each second, for one device and quantity. */
const wobble = (key: string, ms: number, amount: number) =>
  1 + (noise(key, Math.floor(ms / 1000)) - 0.5) * 2 * amount;

/** The grid as the site's country has it, wobbling a little: voltage ±1 %, frequency ±0.02 Hz. */
function grid({ place, serial, ms }: Moment) {
  const mains = mainsOf(place.country, place.longitude);
  return {
    gridVoltage: mains.volts * wobble(`${serial}:grid-v`, ms, 0.01),
    gridFrequency: mains.hertz + (noise(`${serial}:grid-hz`, Math.floor(ms / 1000)) - 0.5) * 0.04,
  };
}

/**
 * The panels' voltage: their maximum-power voltage while the sun is up (rising a little with
 * the light), nothing at night: voltage and current are both 0 in the dark.
 */
const panelVolts = (state: DemoSiteState, nominal: number) =>
  state.production < 1 ? 0 : nominal * (0.88 + 0.12 * Math.min(1, state.sun / 0.6));

const amps = (watts: number, volts: number) => (volts > 0 ? watts / volts : 0);

/** A 16-cell LiFePO4 pack's voltage at a state of charge: 49.6 V nearly empty to 53.6 V full. */
const packVolts = (soc: number) => 49.6 + (4 * soc) / 100;

/** A battery's health, 96–100 %, for good: never above 100. */
const health = (serial: string) => Math.round(100 - 4 * noise(serial, -4));

/**
 * How each bundled product's live values follow its installation's day (day-curve.ts) at its
 * place: the items named here are computed from the day's powers, charge and energy,
 * consistently (a current is the power over its voltage, the grid makes up the balance, the
 * remaining capacity is the charge of the full capacity, panels give neither voltage nor current
 * at night, the grid is the country's); every other live item keeps its small swing around its
 * default (live-values.ts). A product without a profile only swings.
 */
const PROFILES: Readonly<Record<string, ProductProfile>> = {
  hybrid5k: {
    size: { peakW: 5000, batteryWh: 10_000 },
    values: (moment) => {
      const { state } = moment;
      const pvVoltage = panelVolts(state, 385);
      const batteryVoltage = packVolts(state.soc);
      return {
        ...grid(moment),
        pvVoltage,
        pvPower: state.production,
        pvCurrent: amps(state.production, pvVoltage),
        loadPower: state.consumption,
        gridPower: state.grid,
        batteryVoltage,
        batterySoc: state.soc,
        batteryCurrent: amps(state.battery, batteryVoltage),
        inverterTemp: 32 + (14 * state.production) / 5000,
        energyToday: state.producedTodayKwh,
        energyTotal: state.producedKwh,
      };
    },
  },
  battery10: {
    size: { peakW: 0, batteryWh: 10_000 },
    values: ({ state, serial }) => {
      const soh = health(serial);
      // 200 Ah when new, less as it ages; what is left is the charge of what it holds.
      const fullCapacity = (200 * soh) / 100;
      const packVoltage = packVolts(state.soc);
      return {
        soc: state.soc,
        soh,
        fullCapacity,
        remainingCapacity: (fullCapacity * state.soc) / 100,
        packVoltage,
        packCurrent: amps(state.battery, packVoltage),
        chargeEnergyTotal: state.chargedKwh,
      };
    },
  },
  e1mppt40: {
    size: { peakW: 1100, batteryWh: 0 },
    values: ({ state, place, ms, display }) => {
      const pvVoltage = panelVolts(state, 96);
      const chargePower = 0.96 * state.production;
      return {
        pvVoltage,
        pvCurrent: amps(state.production, pvVoltage),
        chargePower,
        chargeCurrent: amps(chargePower, display('batteryVoltage')),
        yieldToday: state.producedTodayKwh,
        yieldTotal: state.producedKwh,
        maxPowerToday: state.maxProductionTodayW,
        ...(place.installedAt === undefined
          ? {}
          : { daysInService: Math.max(0, Math.floor((ms - place.installedAt) / 86_400_000)) }),
      };
    },
  },
};

/**
 * The live values (display units) a bundled product's profile sets at `ms`, by item name; empty
 * for a product without one. `display` reads the device's other values of the moment; `place` is
 * where the device is (by default: at its clock's longitude); `adjust` changes the installation's
 * state (a battery left nearly empty), and every value that follows from it follows.
 * @example profileValues('hybrid5k', 'HX5K-24-000133', Date.now(), (n) => values[n], place).pvPower
 */
export function profileValues(
  productKey: string,
  serial: string,
  ms: number,
  display: (name: string) => number,
  place: DemoPlace = placeOfClock(ms),
  adjust: Partial<DemoSiteState> = {},
): Record<string, number> {
  const profile = PROFILES[productKey];
  if (!profile) return {};
  const state = { ...demoSiteAt(serial, ms, profile.size, place), ...adjust };
  return profile.values({ state, place, serial, ms, display });
}
