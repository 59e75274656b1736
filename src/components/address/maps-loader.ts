import { importLibrary, setOptions } from '@googlemaps/js-api-loader';
import type { PlaceLike } from './address-record.ts';

/** Logged (and only logged: the person just types the address) when the maps script fails. */
export const MAPS_LOAD_FAILED = 'Google Maps loading failed';

/** Options of the autocomplete (specification §9). */
export interface AutocompleteOptions {
  /** ISO 3166-1 alpha-2 codes the suggestions are restricted to. */
  country?: string | string[];
  /** Place types, e.g. `['address']`. */
  types?: string[];
  strictBounds?: boolean;
  /** Ask only for the place id (and name): cheaper, but no address parts or position. */
  placeIdOnly?: boolean;
}

/** What the control uses of a Places `Autocomplete`. */
export interface AutocompleteLike {
  addListener: (event: 'place_changed', handler: () => void) => unknown;
  getPlace: () => PlaceLike;
}

export type AutocompleteFactory = (input: HTMLInputElement, options: AutocompleteOptions) => AutocompleteLike;

const ADDRESS_FIELDS = [
  'address_components',
  'formatted_address',
  'geometry',
  'icon',
  'id',
  'name',
  'place_id',
  'url',
  'vicinity',
];

let loading: Promise<AutocompleteFactory | null> | null = null;

/**
 * Loads the maps script once, with the places library and the configured key, and answers a
 * factory of autocompletes; null when there is no key or the script fails to load (then the
 * console says {@link MAPS_LOAD_FAILED} and the field stays a plain text input).
 */
export function loadAutocomplete(apiKey: string | null): Promise<AutocompleteFactory | null> {
  if (loading) return loading;
  loading = (async () => {
    try {
      if (!apiKey) throw new Error('no maps key configured');
      setOptions({ key: apiKey, v: 'weekly', libraries: ['places'] });
      const places = await importLibrary('places');
      return (input, options) => {
        const fields = options.placeIdOnly ? ['place_id', 'name'] : ADDRESS_FIELDS;
        return new places.Autocomplete(input, {
          fields,
          ...(options.types ? { types: options.types } : {}),
          ...(options.strictBounds !== undefined ? { strictBounds: options.strictBounds } : {}),
          ...(options.country ? { componentRestrictions: { country: options.country } } : {}),
        }) as unknown as AutocompleteLike;
      };
    } catch (error) {
      console.error(MAPS_LOAD_FAILED, error);
      return null;
    }
  })();
  return loading;
}
