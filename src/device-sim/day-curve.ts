import { noise } from './live-values.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Energy counters count from here (local midnight of 1 January 2025): a pure function of time. */
const EPOCH_DAY = Math.floor(Date.UTC(2025, 0, 1) / DAY_MS);
/** The sun is up from 06:30 to 18:30, local time. */
const SUNRISE = 6.5;
const DAYLIGHT = 12;
/** The battery's state of charge swings ±35 points around 55 % over a day, highest at 15:30. */
const SOC_MID = 55;
const SOC_SWING = 35;
const SOC_PEAK_HOUR = 15.5;

/** The local time of `ms`: its day number since 1970 and the hour of that day (0–24, fractional). */
function localTime(ms: number): { day: number; hour: number } {
  const local = ms - new Date(ms).getTimezoneOffset() * 60_000;
  const day = Math.floor(local / DAY_MS);
  return { day, hour: (local - day * DAY_MS) / HOUR_MS };
}

/** How much of the clear-sky peak the sun gives at `hour` (0 at night, 1 at 12:30). */
function sun(hour: number): number {
  const x = (hour - SUNRISE) / DAYLIGHT;
  return x > 0 && x < 1 ? Math.sin(Math.PI * x) : 0;
}

/** Peak-hours of sun from midnight to `hour`: ∫ sun, in hours (24/π over a whole day). */
function sunHours(hour: number): number {
  const x = Math.min(1, Math.max(0, (hour - SUNRISE) / DAYLIGHT));
  return (DAYLIGHT / Math.PI) * (1 - Math.cos(Math.PI * x));
}

/** The share of clear sky a day gets (0.55–1), the same for every caller of one device and day. */
function weather(key: string, day: number): number {
  return 0.55 + 0.45 * noise(key, day);
}

/** Energy counters: a device's sum of whole days' weather since the epoch, extended day by day. */
const daySums = new Map<string, { day: number; sum: number }>();

/** Σ weather(d) over the days from the epoch up to `day` (excluded). */
function weatherBefore(key: string, day: number): number {
  let known = daySums.get(key);
  if (!known || known.day > day) known = { day: EPOCH_DAY, sum: 0 };
  let { sum } = known;
  for (let d = known.day; d < day; d++) sum += weather(key, d);
  daySums.set(key, { day, sum });
  return sum;
}

/** A small per-second wobble (±`amount`), different for each device and quantity. */
function jitter(key: string, ms: number, amount: number): number {
  return 1 + (noise(key, Math.floor(ms / 1000)) - 0.5) * 2 * amount;
}

/** What one demo installation does at a moment: powers in W, state of charge in %, energy in kWh. */
export interface DemoSiteState {
  /** Solar production. */
  production: number;
  /** Household consumption. */
  consumption: number;
  /** Battery power, positive while charging. */
  battery: number;
  /** Grid power, positive while importing. */
  grid: number;
  soc: number;
  /** Energy produced since the epoch, and since local midnight. */
  producedKwh: number;
  producedTodayKwh: number;
  /** Energy put into the battery since the epoch. */
  chargedKwh: number;
}

/** How large one installation is: solar peak (W) and battery capacity (Wh). */
export interface DemoSiteSize {
  peakW: number;
  batteryWh: number;
}

/**
 * A plausible day of one installation, as a pure function of the clock: solar power follows the
 * sun (06:30–18:30 local time) scaled by each day's weather, consumption has a morning and an
 * evening peak, the battery charges until mid-afternoon and discharges through the night, the grid
 * makes up the difference, and the energy counters are the exact integrals, so they only grow.
 * Each serial number gets its own size (±20 %), weather and wobble.
 * @example demoSiteAt('HX5K-24-000133', Date.now(), { peakW: 5000, batteryWh: 10_000 }).production
 */
export function demoSiteAt(serial: string, ms: number, size: DemoSiteSize): DemoSiteState {
  const scale = 0.8 + 0.4 * noise(serial, -3);
  const peakKw = (size.peakW * scale) / 1000;
  const { day, hour } = localTime(ms);
  const today = weather(serial, day);
  const production = peakKw * 1000 * today * sun(hour) * jitter(`${serial}:pv`, ms, 0.02);
  const bump = (centre: number, width: number) => Math.exp(-(((hour - centre) / width) ** 2));
  const consumption =
    scale * (320 + 900 * bump(7.5, 1.2) + 1500 * bump(19, 1.8)) * jitter(`${serial}:load`, ms, 0.04);
  const angle = (2 * Math.PI * (hour - SOC_PEAK_HOUR + 6)) / 24;
  const soc = SOC_MID + SOC_SWING * Math.sin(angle);
  // dSoC/dt (points an hour) × capacity: the battery power that moves the charge that way.
  const amplitude = (size.batteryWh * SOC_SWING * ((2 * Math.PI) / 24)) / 100;
  const battery = amplitude * Math.cos(angle);
  const producedTodayKwh = peakKw * today * sunHours(hour);
  // Charging while cos(angle) > 0, i.e. hours SOC_PEAK_HOUR − 12 … SOC_PEAK_HOUR of each day.
  const dailyChargeKwh = (amplitude * 24) / Math.PI / 1000;
  const chargedToday =
    ((amplitude * 24) / (2 * Math.PI) / 1000) * (Math.sin(Math.min(angle, Math.PI / 2)) + 1);
  const charging = angle > -Math.PI / 2;
  return {
    production,
    consumption,
    battery,
    grid: consumption + battery - production,
    soc,
    producedKwh: peakKw * (24 / Math.PI) * weatherBefore(serial, day) + producedTodayKwh,
    producedTodayKwh,
    chargedKwh: dailyChargeKwh * (day - EPOCH_DAY) + (charging ? chargedToday : 0),
  };
}
