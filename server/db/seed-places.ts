/** Towns the demo sites are spread over, with real centre coordinates and a few real street names. */
export const SEED_TOWNS = [
  {
    locality: 'Austin',
    zone: 'America/Chicago',
    state: ['Texas', 'TX'],
    postal: '787',
    lat: 30.2672,
    lng: -97.7431,
    streets: [
      'Congress Ave',
      'Barton Springs Rd',
      'South Lamar Blvd',
      'East Cesar Chavez St',
      'Guadalupe St',
    ],
  },
  {
    locality: 'Phoenix',
    zone: 'America/Phoenix',
    state: ['Arizona', 'AZ'],
    postal: '850',
    lat: 33.4484,
    lng: -112.074,
    streets: ['Camelback Rd', 'Central Ave', 'Indian School Rd', 'Thomas Rd', 'McDowell Rd'],
  },
  {
    locality: 'San Diego',
    zone: 'America/Los_Angeles',
    state: ['California', 'CA'],
    postal: '921',
    lat: 32.7157,
    lng: -117.1611,
    streets: ['Adams Ave', 'El Cajon Blvd', 'Garnet Ave', 'University Ave', 'Park Blvd'],
  },
  {
    locality: 'Denver',
    zone: 'America/Denver',
    state: ['Colorado', 'CO'],
    postal: '802',
    lat: 39.7392,
    lng: -104.9903,
    streets: ['Colfax Ave', 'Broadway', 'Federal Blvd', 'Speer Blvd', 'Tennyson St'],
  },
  {
    locality: 'Sacramento',
    zone: 'America/Los_Angeles',
    state: ['California', 'CA'],
    postal: '958',
    lat: 38.5816,
    lng: -121.4944,
    streets: ['Freeport Blvd', 'J St', 'Folsom Blvd', 'Land Park Dr', 'Stockton Blvd'],
  },
  {
    locality: 'Tucson',
    zone: 'America/Phoenix',
    state: ['Arizona', 'AZ'],
    postal: '857',
    lat: 32.2226,
    lng: -110.9747,
    streets: ['Speedway Blvd', 'Oracle Rd', 'Grant Rd', 'Broadway Blvd', 'Campbell Ave'],
  },
  {
    locality: 'Albuquerque',
    zone: 'America/Denver',
    state: ['New Mexico', 'NM'],
    postal: '871',
    lat: 35.0844,
    lng: -106.6504,
    streets: [
      'Central Ave SE',
      'Montgomery Blvd NE',
      'Rio Grande Blvd NW',
      'Lomas Blvd NE',
      'Girard Blvd NE',
    ],
  },
  {
    locality: 'Las Vegas',
    zone: 'America/Los_Angeles',
    state: ['Nevada', 'NV'],
    postal: '891',
    lat: 36.1699,
    lng: -115.1398,
    streets: ['Charleston Blvd', 'Sahara Ave', 'Rainbow Blvd', 'Flamingo Rd', 'Decatur Blvd'],
  },
] as const;

const SITE_KINDS = ['Residence', 'Farmhouse', 'Workshop', 'Cottage', 'Townhouse', 'Barn', 'Studio', 'Garage'];
const FAMILY_NAMES = [
  'Alvarez',
  'Brooks',
  'Chen',
  'Dawson',
  'Everett',
  'Fischer',
  'Garcia',
  'Hughes',
  'Ito',
  'Jensen',
];

/** Deterministic pseudo-random numbers (mulberry32), so every fresh seed is the same. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A real-looking site (name, street address, coordinates near a town centre) for index `n`. */
export function demoSite(n: number, random: () => number) {
  const town = SEED_TOWNS[n % SEED_TOWNS.length] ?? SEED_TOWNS[0];
  const street = town.streets[Math.floor(random() * town.streets.length)] ?? town.streets[0];
  const number = String(100 + Math.floor(random() * 8900));
  const family = FAMILY_NAMES[Math.floor(random() * FAMILY_NAMES.length)];
  const kind = SITE_KINDS[Math.floor(random() * SITE_KINDS.length)];
  const postalCode = `${town.postal}${String(Math.floor(random() * 100)).padStart(2, '0')}`;
  return {
    name: `${family} ${kind} ${n + 1}`,
    display_address: `${number} ${street}, ${town.locality}, ${town.state[1]} ${postalCode}, USA`,
    street_number: number,
    street_name: street,
    postal_code: postalCode,
    locality: town.locality,
    state: town.state[1],
    country: 'US',
    latitude: Number((town.lat + (random() - 0.5) * 0.2).toFixed(6)),
    longitude: Number((town.lng + (random() - 0.5) * 0.2).toFixed(6)),
    place_id: null,
    time_zone: town.zone,
  };
}

/** Catalogue models and the serial prefix of each (bundled devices lists). */
export const SEED_MODELS = [
  { modelId: 'HX-5000', prefix: 'HX5K', name: 'Helios HX-5000 Hybrid Inverter', kind: 'inverter' },
  { modelId: 'BX-10', prefix: 'BX10', name: 'Basalt BX-10 Home Battery', kind: 'battery' },
  { modelId: 'E1-40', prefix: 'E140', name: 'E1 MPPT 40 A Charge Controller', kind: 'charge controller' },
] as const;

/** Where a demo device is, which is what an installer names it by (the model is a column of its own). */
const DEVICE_PLACES = ['Garage', 'Utility room', 'Roof', 'Barn', 'Plant room', 'Shed', 'Cellar'] as const;

/** A demo device's name: where it is and what it is ("Garage inverter"), never the model again. */
export function demoDeviceName(kind: string, n: number): string {
  return `${DEVICE_PLACES[n % DEVICE_PLACES.length]} ${kind}`;
}

/**
 * How many days ago the `k`th device of demo site `n` was installed: a month to about two years,
 * so a week of history fits after it and its counters have grown since.
 */
export function demoInstallDays(n: number, k: number): number {
  return 30 + ((n * 53 + k * 29) % 600);
}

/** A serial such as `HX5K-24-000123`. */
export function demoSerial(prefix: string, year: number, n: number): string {
  return `${prefix}-${year}-${String(n).padStart(6, '0')}`;
}
