import { noise } from './live-values.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Energy counters count from here (1 January 2020) unless the device says when it was installed. */
const EPOCH_MS = Date.UTC(2020, 0, 1);
const DEGREE = Math.PI / 180;
/** The battery's state of charge swings ±35 points around 55 % over a day, highest at 15:30 sun time. */
const SOC_MID = 55;
const SOC_SWING = 35;
const SOC_PEAK_HOUR = 15.5;

/** Where an installation is, and since when (its counters start there). */
export interface DemoPlace {
  latitude: number;
  longitude: number;
  /** Two-letter code or English name: the country's mains (grid voltage and frequency). */
  country: string;
  /** Epoch ms the device was installed: its energy counters start at 0 then. */
  installedAt?: number;
}

/**
 * Where a device is when nobody says (the demo device in the browser, a device run by hand): at
 * the longitude of the clock's time zone (15° an hour), at 45° north, its counters from 2020.
 */
export function placeOfClock(ms: number): DemoPlace {
  return { latitude: 45, longitude: -new Date(ms).getTimezoneOffset() / 4, country: '' };
}

/**
 * Mean solar time at a longitude: the day (since 1970) and the hour of that day, noon being when
 * the sun is highest there (within the equation of time's quarter hour).
 */
function solarTime(ms: number, longitude: number): { day: number; hour: number } {
  const solar = ms + longitude * 240_000;
  const day = Math.floor(solar / DAY_MS);
  return { day, hour: (solar - day * DAY_MS) / HOUR_MS };
}

/**
 * The sun's path on a day at a latitude: the sine of its height is `a + b·cos(ω)` at hour angle ω
 * (15° an hour from noon); it is up for |ω| < `halfDay` (radians). Declination from the day of the
 * year (±23.44°, lowest on 21 December).
 */
function sunPath(day: number, latitude: number): { a: number; b: number; halfDay: number } {
  const year = new Date(day * DAY_MS).getUTCFullYear();
  const dayOfYear = day - Math.floor(Date.UTC(year, 0, 1) / DAY_MS);
  const declination = -23.44 * DEGREE * Math.cos(((2 * Math.PI) / 365) * (dayOfYear + 10));
  const phi = latitude * DEGREE;
  const a = Math.sin(phi) * Math.sin(declination);
  const b = Math.cos(phi) * Math.cos(declination);
  const ratio = b === 0 ? (a > 0 ? -2 : 2) : -a / b;
  const halfDay = ratio <= -1 ? Math.PI : ratio >= 1 ? 0 : Math.acos(ratio);
  return { a, b, halfDay };
}

/** The hour angle (radians) at an hour of solar time. */
const hourAngle = (hour: number) => ((hour - 12) * Math.PI) / 12;

/** Clear-sky output from sunrise to hour angle ω, in peak-hours: ∫ (a + b·cos ω) dt. */
function sunHoursUntil(path: { a: number; b: number; halfDay: number }, omega: number): number {
  const to = Math.min(path.halfDay, Math.max(-path.halfDay, omega));
  const from = -path.halfDay;
  return (12 / Math.PI) * (path.a * (to - from) + path.b * (Math.sin(to) - Math.sin(from)));
}

/** The share of clear sky a day gets (0.55–1), the same for every caller of one device and day. */
function weather(key: string, day: number): number {
  return 0.55 + 0.45 * noise(key, day);
}

/** A device's clear-sky energy of whole days, by day: Σ weather × sun-hours, extended day by day. */
const daySums = new Map<string, { day: number; sum: number }>();

/** Σ weather(d) × sun-hours(d) over the days from `first` up to `day` (excluded), at a latitude. */
function sunHoursBefore(key: string, latitude: number, first: number, day: number): number {
  const id = `${key}@${latitude}@${first}`;
  let known = daySums.get(id);
  if (!known || known.day > day) known = { day: first, sum: 0 };
  let { sum } = known;
  for (let d = known.day; d < day; d++) {
    const path = sunPath(d, latitude);
    sum += weather(key, d) * sunHoursUntil(path, Math.PI);
  }
  daySums.set(id, { day, sum });
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
  /** Energy produced since the device was installed, and since midnight (sun time). */
  producedKwh: number;
  producedTodayKwh: number;
  /** The highest production of the day so far. */
  maxProductionTodayW: number;
  /** Energy put into the battery since the device was installed. */
  chargedKwh: number;
  /** How far the sun is up, 0–1 (the height's sine): what the panels' voltage follows. */
  sun: number;
}

/** How large one installation is: solar peak (W) and battery capacity (Wh). */
export interface DemoSiteSize {
  peakW: number;
  batteryWh: number;
}

/** Energy produced from the counters' start to `ms`, in kWh. */
function producedSince(serial: string, ms: number, peakKw: number, place: DemoPlace, first: number): number {
  const { day, hour } = solarTime(ms, place.longitude);
  if (day < first) return 0;
  const whole = sunHoursBefore(serial, place.latitude, first, day);
  const today = weather(serial, day) * sunHoursUntil(sunPath(day, place.latitude), hourAngle(hour));
  return peakKw * (whole + today);
}

/** Energy charged from the first day to `ms`: the charging half of each day's swing, in kWh. */
function chargedSince(ms: number, amplitude: number, place: DemoPlace, first: number): number {
  const { day, hour } = solarTime(ms, place.longitude);
  if (day < first) return 0;
  const angle = (2 * Math.PI * (hour - SOC_PEAK_HOUR + 6)) / 24;
  const dailyChargeKwh = (amplitude * 24) / Math.PI / 1000;
  const chargedToday =
    ((amplitude * 24) / (2 * Math.PI) / 1000) * (Math.sin(Math.min(angle, Math.PI / 2)) + 1);
  // Charging while cos(angle) > 0, i.e. hours SOC_PEAK_HOUR − 12 … SOC_PEAK_HOUR of each day.
  return dailyChargeKwh * (day - first) + (angle > -Math.PI / 2 ? chargedToday : 0);
}

/**
 * A plausible day of one installation at its place, as a pure function of the clock: solar power
 * follows the sun at the site's latitude and longitude and the season (nothing at night, most at
 * the site's solar noon, longer and higher days in summer) scaled by each day's weather,
 * consumption has a morning and an evening peak, the battery charges until mid-afternoon and
 * discharges through the night, the grid makes up the difference, and the energy counters are the
 * exact integrals since the device was installed, so they only grow. Each serial number gets its
 * own size (±20 %), weather and wobble.
 * @example demoSiteAt('HX5K-24-000133', Date.now(), { peakW: 5000, batteryWh: 10_000 }, place).production
 */
export function demoSiteAt(
  serial: string,
  ms: number,
  size: DemoSiteSize,
  place: DemoPlace = placeOfClock(ms),
): DemoSiteState {
  const scale = 0.8 + 0.4 * noise(serial, -3);
  const peakKw = (size.peakW * scale) / 1000;
  const { day, hour } = solarTime(ms, place.longitude);
  const path = sunPath(day, place.latitude);
  const omega = hourAngle(hour);
  const sun = Math.abs(omega) < path.halfDay ? Math.max(0, path.a + path.b * Math.cos(omega)) : 0;
  const today = weather(serial, day);
  const production = peakKw * 1000 * today * sun * jitter(`${serial}:pv`, ms, 0.02);
  const bump = (centre: number, width: number) => Math.exp(-(((hour - centre) / width) ** 2));
  const consumption =
    scale * (320 + 900 * bump(7.5, 1.2) + 1500 * bump(19, 1.8)) * jitter(`${serial}:load`, ms, 0.04);
  const angle = (2 * Math.PI * (hour - SOC_PEAK_HOUR + 6)) / 24;
  const soc = SOC_MID + SOC_SWING * Math.sin(angle);
  // dSoC/dt (points an hour) × capacity: the battery power that moves the charge that way.
  const amplitude = (size.batteryWh * SOC_SWING * ((2 * Math.PI) / 24)) / 100;
  const battery = amplitude * Math.cos(angle);
  const first = Math.floor((place.installedAt ?? EPOCH_MS) / DAY_MS);
  // Noon's sun is the day's highest: before it, the highest so far is now's.
  const highest = path.a + path.b * Math.cos(Math.min(0, Math.max(omega, -path.halfDay)));
  return {
    production,
    consumption,
    battery,
    grid: consumption + battery - production,
    soc,
    producedKwh: Math.max(
      0,
      producedSince(serial, ms, peakKw, place, first) -
        producedSince(serial, place.installedAt ?? EPOCH_MS, peakKw, place, first),
    ),
    producedTodayKwh: peakKw * today * sunHoursUntil(path, omega),
    maxProductionTodayW: peakKw * 1000 * today * Math.max(0, omega > -path.halfDay ? highest : 0),
    chargedKwh: Math.max(
      0,
      chargedSince(ms, amplitude, place, first) -
        chargedSince(place.installedAt ?? EPOCH_MS, amplitude, place, first),
    ),
    sun,
  };
}
