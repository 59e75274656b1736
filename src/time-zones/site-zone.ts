import tzlookup from '@photostructure/tz-lookup';

/**
 * A site's time zone, suggested from where it is: its position when it has one (an offline lookup
 * of the zone boundaries, accurate away from borders at sea and in empty land), else its country
 * when the country keeps one clock (or, for a country of several, the zone most of its people
 * live in). The person can always pick another zone; these only suggest.
 */

/** The "no geometry" coordinate of specification §3: a site saved without a position. */
export const NO_POSITION = -1;

/** The zone of the capital or the most populous part, for countries with several zones. */
const MAIN_ZONE: Readonly<Record<string, string>> = {
  AR: 'America/Argentina/Buenos_Aires',
  AU: 'Australia/Sydney',
  BR: 'America/Sao_Paulo',
  CA: 'America/Toronto',
  CD: 'Africa/Kinshasa',
  CL: 'America/Santiago',
  CN: 'Asia/Shanghai',
  DE: 'Europe/Berlin',
  EC: 'America/Guayaquil',
  ES: 'Europe/Madrid',
  ID: 'Asia/Jakarta',
  KZ: 'Asia/Almaty',
  MN: 'Asia/Ulaanbaatar',
  MX: 'America/Mexico_City',
  MY: 'Asia/Kuala_Lumpur',
  NZ: 'Pacific/Auckland',
  PT: 'Europe/Lisbon',
  RU: 'Europe/Moscow',
  UA: 'Europe/Kyiv',
  US: 'America/New_York',
};

/** Whether this JavaScript engine knows `zone` as an IANA time zone. */
export function isKnownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Whether a site has a position (the -1/-1 pair means none). */
export function hasPosition(site: { latitude: number; longitude: number }): boolean {
  return !(site.latitude === NO_POSITION && site.longitude === NO_POSITION);
}

/**
 * The time zone at a position.
 * @example zoneAtPosition(30.2672, -97.7431) // 'America/Chicago'
 */
export function zoneAtPosition(latitude: number, longitude: number): string | undefined {
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return undefined;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return undefined;
  const zone = tzlookup(latitude, longitude);
  return isKnownZone(zone) ? zone : undefined;
}

let regionByName: Map<string, string> | undefined;

/** Every region's English name (and the usual short forms) to its two-letter code, built once. */
function regionCodeOfName(name: string): string | undefined {
  if (!regionByName) {
    regionByName = new Map([
      ['usa', 'US'],
      ['united states of america', 'US'],
      ['uk', 'GB'],
      ['great britain', 'GB'],
    ]);
    const names = new Intl.DisplayNames('en', { type: 'region', fallback: 'none' });
    for (let a = 65; a <= 90; a++)
      for (let b = 65; b <= 90; b++) {
        const code = String.fromCharCode(a, b);
        const english = names.of(code);
        if (english) regionByName.set(english.toLowerCase(), code);
      }
  }
  return regionByName.get(name.trim().toLowerCase());
}

/** The zones ICU lists for a region (`Intl.Locale#getTimeZones`, formerly the `timeZones` getter). */
function zonesOfRegion(region: string): readonly string[] {
  try {
    const locale = new Intl.Locale('und', { region }) as Intl.Locale & {
      getTimeZones?: () => string[];
      timeZones?: string[];
    };
    return locale.getTimeZones?.() ?? locale.timeZones ?? [];
  } catch {
    return [];
  }
}

/**
 * A country's two-letter code, from the code itself or its English name; undefined when unknown.
 * @example regionCode('Germany') // 'DE';  regionCode('us') // 'US'
 */
export function regionCode(country: string): string | undefined {
  const text = country.trim();
  return /^[A-Za-z]{2}$/.test(text) ? text.toUpperCase() : regionCodeOfName(text);
}

/**
 * The time zone of a country given as its two-letter code or English name: its only zone, or the
 * main one of a country with several; undefined when it cannot tell.
 * @example zoneOfCountry('DE') // 'Europe/Berlin';  zoneOfCountry('United States') // 'America/New_York'
 */
export function zoneOfCountry(country: string): string | undefined {
  const code = regionCode(country);
  if (!code) return undefined;
  const main = MAIN_ZONE[code];
  if (main && isKnownZone(main)) return main;
  const zones = zonesOfRegion(code);
  return zones.length === 1 ? zones[0] : undefined;
}

/**
 * The zone to suggest for a site: from its position, else from its country; undefined when
 * neither tells (the caller falls back to a configured zone).
 * @example suggestedZone({ latitude: 48.137, longitude: 11.575, country: 'DE' }) // 'Europe/Berlin'
 */
export function suggestedZone(site: {
  latitude: number;
  longitude: number;
  country: string;
}): string | undefined {
  return (
    (hasPosition(site) ? zoneAtPosition(site.latitude, site.longitude) : undefined) ??
    zoneOfCountry(site.country)
  );
}
