import {
  ADDRESS_PART_KEYS,
  type AddressParts,
  composeAddressLine,
  sameParts,
} from '../../components/address/address-line.ts';
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
export function zoneSuggestedFor(values: SiteFormValues): string | undefined {
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
export function siteZone(values: SiteFormValues, saved: SiteFormValues, picked: boolean): string {
  const moved =
    values.latitude !== saved.latitude ||
    values.longitude !== saved.longitude ||
    values.country !== saved.country;
  if (picked || (!moved && values.timeZone)) return values.timeZone;
  return zoneSuggestedFor(values) ?? values.timeZone;
}
