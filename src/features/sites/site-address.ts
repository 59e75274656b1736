import {
  ADDRESS_PART_KEYS,
  type AddressParts,
  composeAddressLine,
  sameParts,
} from '../../components/address/address-line.ts';
import {
  type AddressRecord,
  type PlaceLike,
  postalCodeText,
} from '../../components/address/address-record.ts';
import { countryCodeOf } from '../../components/address/countries.ts';
import { NO_POSITION, suggestedZone } from '../../time-zones/site-zone.ts';
import { coordinateOf, type SiteFormValues } from './site-form-schema.ts';

/** The line as saved or picked, while the parts are still the ones it was made with. */
export interface KnownLine {
  line: string;
  parts: AddressParts;
  /** Picked from the maps suggestions now (its position came with it), not the saved one. */
  picked: boolean;
}

/** The address parts of what the form holds. */
export const partsOf = (values: Pick<SiteFormValues, keyof AddressParts>): AddressParts =>
  Object.fromEntries(ADDRESS_PART_KEYS.map((key) => [key, values[key]])) as unknown as AddressParts;

/**
 * The address parts from their values listed in the order of `ADDRESS_PART_KEYS` (as a form
 * watching those fields gives them).
 * @example partsListed(['Harbour Rd', '12', '', 'Portside', '', 'AU']).locality // 'Portside'
 */
export const partsListed = (values: readonly string[]): AddressParts =>
  Object.fromEntries(ADDRESS_PART_KEYS.map((key, at) => [key, values[at] ?? ''])) as unknown as AddressParts;

/** The fields the zone follows: the position, the country, and the zone as the form holds it. */
export const ZONE_FIELDS = ['latitude', 'longitude', 'country', 'timeZone'] as const;
export type ZoneValues = Pick<SiteFormValues, (typeof ZONE_FIELDS)[number]>;

/** The saved line of a site being edited, or null for a new site. */
export const savedLine = (values: SiteFormValues): KnownLine | null =>
  values.displayAddress ? { line: values.displayAddress, parts: partsOf(values), picked: false } : null;

/**
 * The address line shown and saved: the saved or picked line while the parts are the ones it
 * was made with, else the line made from the parts.
 * @example addressLine(null, parts) // '12 Paddock Lane, Dripping Springs, TX 78620, US'
 */
export function addressLine(known: KnownLine | null, parts: AddressParts): string {
  return known && sameParts(known.parts, parts) ? known.line : composeAddressLine(parts);
}

/** What a part changed by hand does to the rest of the form. */
export interface PartEdit {
  /** The line that still describes the parts, or null: it is made from them from now on. */
  known: KnownLine | null;
  /** The place picked or saved no longer describes the address: its id goes. */
  clearPlace: boolean;
  /** The position came with a place picked now, which no longer describes it: it goes, and the form says why. */
  clearPosition: boolean;
}

/**
 * A part changed by hand: a line or place picked for other parts no longer describes them. A
 * position that came with a picked place goes with it; a saved position stays (the person may
 * only be correcting a typo in the street's name).
 */
export function afterPartEdited(known: KnownLine | null, parts: AddressParts): PartEdit {
  if (!known || sameParts(known.parts, parts)) return { known, clearPlace: false, clearPosition: false };
  return { known: null, clearPlace: true, clearPosition: known.picked };
}

/** A coordinate as typed, as a number; undefined when blank or not a number. */
const typedCoordinate = (text: string) => {
  const value = coordinateOf(text);
  return Number.isNaN(value) ? undefined : value;
};

/** The zone suggested for what the form holds: from its position (both halves typed), else its country. */
export function zoneSuggestedFor(values: Omit<ZoneValues, 'timeZone'>): string | undefined {
  const latitude = typedCoordinate(values.latitude);
  const longitude = typedCoordinate(values.longitude);
  const whole = latitude !== undefined && longitude !== undefined;
  return suggestedZone({
    latitude: whole ? latitude : NO_POSITION,
    longitude: whole ? longitude : NO_POSITION,
    country: values.country,
  });
}

/**
 * The zone the site is saved with: one the person picked stays; a saved one stays while the
 * position and country are as saved; otherwise the zone follows the position and country.
 */
export function siteZone(values: ZoneValues, saved: ZoneValues, picked: boolean): string {
  const moved =
    values.latitude !== saved.latitude ||
    values.longitude !== saved.longitude ||
    values.country !== saved.country;
  if (picked || (!moved && values.timeZone)) return values.timeZone;
  return zoneSuggestedFor(values) ?? values.timeZone;
}

/** What the site form knows of its address beyond its fields: the rule's state, kept by the form. */
export interface AddressState {
  /** The saved or picked line, while it still describes the parts. */
  known: KnownLine | null;
  /** A position that came with a place picked now was cleared by an edit: the form says why. */
  positionCleared: boolean;
  /** The person picked the zone: it stays, whatever the address becomes. */
  zonePicked: boolean;
}

/** The state of a form opened on `saved` (a new site's empty values, or the site as saved). */
export const openAddress = (saved: SiteFormValues): AddressState => ({
  known: savedLine(saved),
  positionCleared: false,
  zonePicked: false,
});

/** What the person does to the address. */
export type AddressEvent =
  /** A part typed or chosen by hand; `values` is the whole form with the edit in it. */
  | { type: 'part.edited'; values: SiteFormValues }
  /** A place picked from the maps suggestions. */
  | {
      type: 'place.picked';
      record: AddressRecord;
      position: { latitude: number; longitude: number };
      place: PlaceLike;
    }
  | { type: 'zone.picked'; zone: string };

/** The next state, and the fields the event sets (each as given, nothing else touched). */
export interface AddressStep {
  state: AddressState;
  fill: Partial<SiteFormValues>;
}

/**
 * The site form's address rule, one event at a time: an edited part drops a line or place that
 * no longer describes the parts (and a position that came with a place picked now, saying so); a
 * place picked fills every part, its id and position; a zone picked stays. An edit that changes
 * nothing of the state gives back the very state it was given, so the form need not draw again.
 * @example addressStep(openAddress(saved), { type: 'zone.picked', zone: 'Europe/Lisbon' })
 * // { state: { …, zonePicked: true }, fill: { timeZone: 'Europe/Lisbon' } }
 */
export function addressStep(state: AddressState, event: AddressEvent): AddressStep {
  switch (event.type) {
    case 'part.edited': {
      const edit = afterPartEdited(state.known, partsOf(event.values));
      const positionCleared = state.positionCleared || edit.clearPosition;
      const same = edit.known === state.known && positionCleared === state.positionCleared;
      return {
        state: same ? state : { ...state, known: edit.known, positionCleared },
        fill: {
          ...(edit.clearPosition ? { latitude: '', longitude: '' } : {}),
          ...(edit.clearPlace ? { placeId: '' } : {}),
        },
      };
    }
    case 'place.picked': {
      const { record, position, place } = event;
      const parts: AddressParts = {
        streetNumber: record.streetNumber,
        streetName: record.streetName,
        postalCode: postalCodeText(place),
        locality: record.locality.long,
        state: record.state.short || record.state.long,
        country: countryCodeOf(record.country.short) ?? countryCodeOf(record.country.long) ?? '',
      };
      const hasPosition = position.latitude !== NO_POSITION || position.longitude !== NO_POSITION;
      return {
        state: {
          ...state,
          known: { line: record.displayAddress || composeAddressLine(parts), parts, picked: true },
          positionCleared: false,
        },
        fill: {
          ...parts,
          placeId: record.placeID,
          latitude: hasPosition ? String(position.latitude) : '',
          longitude: hasPosition ? String(position.longitude) : '',
        },
      };
    }
    case 'zone.picked':
      return { state: { ...state, zonePicked: true }, fill: { timeZone: event.zone } };
  }
}

/** What the form shows of its address and saves: the line, the zone and the zone suggested. */
export interface AddressShown {
  line: string;
  zone: string;
  suggested: string | undefined;
}

/** The line, zone and suggestion for what the form holds now, opened on `saved`. */
export const addressShown = (
  state: AddressState,
  values: SiteFormValues,
  saved: SiteFormValues,
): AddressShown => ({
  line: addressLine(state.known, partsOf(values)),
  zone: siteZone(values, saved, state.zonePicked),
  suggested: zoneSuggestedFor(values),
});

/** The note under "Position": why it was cleared, or how it is filled. */
export function positionNote(state: AddressState, mapsReady: boolean): string {
  if (state.positionCleared)
    return 'The position of the address picked before was cleared, since the address changed: enter it, pick the address again, or leave it blank.';
  return mapsReady
    ? 'Filled in when you pick an address; you may also enter it yourself, or leave it blank.'
    : 'Optional: enter the latitude and longitude, or leave them blank.';
}
