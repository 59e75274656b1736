/** A long and a short name, as the maps service gives them (e.g. "Texas" / "TX"). */
export interface NamePair {
  long: string;
  short: string;
}

/**
 * The address record of specification §3, produced when a place is selected in the address
 * control. `postalCode` is numeric: null when the place's postal code is not a whole number
 * (e.g. "SW1A 1AA"); the coordinates are -1 when the place has no geometry.
 */
export interface AddressRecord {
  gmID: string;
  icon: string;
  url: string;
  placeID: string;
  displayAddress: string;
  name: string;
  vicinity: string;
  streetNumber: string;
  streetName: string;
  postalCode: number | null;
  sublocality: string;
  locality: NamePair;
  state: NamePair;
  country: NamePair;
  geoLocation: { latitude: number; longitude: number };
}

/** The part of a Places `PlaceResult` the mapping reads (so tests and fakes need no maps types). */
export interface PlaceLike {
  id?: string;
  place_id?: string;
  icon?: string;
  url?: string;
  formatted_address?: string;
  name?: string;
  vicinity?: string;
  address_components?: { long_name: string; short_name: string; types: string[] }[];
  geometry?: { location?: { lat: () => number; lng: () => number } };
}

/** Latitude and longitude when a place has no geometry (specification §3). */
export const NO_POSITION = -1;

function component(place: PlaceLike, ...types: string[]): NamePair {
  const found = place.address_components?.find((c) => types.some((t) => c.types.includes(t)));
  return { long: found?.long_name ?? '', short: found?.short_name ?? '' };
}

/** The postal code as a number, or null when it is not a whole number. */
export function numericPostalCode(text: string): number | null {
  const trimmed = text.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : null;
}

/**
 * Maps a selected place to the address record of specification §3.
 *
 * @example
 * toAddressRecord({ place_id: 'abc', formatted_address: '1 Main St', geometry: { location: { lat: () => 1, lng: () => 2 } } })
 *   .geoLocation // { latitude: 1, longitude: 2 }
 */
export function toAddressRecord(place: PlaceLike): AddressRecord {
  const location = place.geometry?.location;
  return {
    gmID: place.id ?? '',
    icon: place.icon ?? '',
    url: place.url ?? '',
    placeID: place.place_id ?? '',
    displayAddress: place.formatted_address ?? place.name ?? '',
    name: place.name ?? '',
    vicinity: place.vicinity ?? '',
    streetNumber: component(place, 'street_number').long,
    streetName: component(place, 'route').long,
    postalCode: numericPostalCode(component(place, 'postal_code').long),
    sublocality: component(place, 'sublocality', 'sublocality_level_1').long,
    locality: component(place, 'locality', 'postal_town'),
    state: component(place, 'administrative_area_level_1'),
    country: component(place, 'country'),
    geoLocation: {
      latitude: location ? location.lat() : NO_POSITION,
      longitude: location ? location.lng() : NO_POSITION,
    },
  };
}

/** The postal code exactly as the place wrote it, for a site's text field. */
export const postalCodeText = (place: PlaceLike): string => component(place, 'postal_code').long;

/** Specification §5: valid unless marked required and empty. */
export const isAddressValid = (value: string, required: boolean): boolean => !required || value.trim() !== '';
