import { z } from 'zod';
import type { Site, SitePayloadInput } from '../../../contracts/sites.ts';
import { NO_POSITION } from '../../components/address/address-record.ts';
import { countryCodeOf, isCountryCode } from '../../components/address/countries.ts';

/**
 * A coordinate as typed, with a decimal point or a decimal comma ("48.137" or "48,137", as the
 * person's language writes it); NaN when it is not a number.
 * @example coordinateOf(' 48,137 ') // 48.137
 */
export function coordinateOf(text: string): number {
  const trimmed = text.trim();
  if (!/^[+-]?(\d+([.,]\d*)?|[.,]\d+)$/.test(trimmed)) return Number.NaN;
  return Number(trimmed.replace(',', '.'));
}

const coordinate = (name: string, limit: number, example: string) =>
  z
    .string()
    .trim()
    .refine((text) => text === '' || Math.abs(coordinateOf(text)) <= limit, {
      message: `${name} is a number from -${limit} to ${limit}, such as ${example} or ${example.replace('.', ',')}`,
    });

/** What the site form holds: text as typed, so a failed save keeps exactly what was entered. */
export const siteFormSchema = z
  .object({
    name: z.string().trim().min(1, 'Give the site a name').max(120, 'At most 120 characters'),
    // Made from the parts when the form is saved (SiteForm): never typed on its own.
    displayAddress: z.string().trim().max(300, 'At most 300 characters'),
    streetNumber: z.string().trim().max(20, 'At most 20 characters'),
    // Street, town and country make an address; without them it is half-filled and not saved.
    streetName: z.string().trim().min(1, 'Enter the street').max(120, 'At most 120 characters'),
    postalCode: z.string().trim().max(20, 'At most 20 characters'),
    locality: z.string().trim().min(1, 'Enter the town or city').max(120, 'At most 120 characters'),
    state: z.string().trim().max(120, 'At most 120 characters'),
    country: z.string().refine(isCountryCode, 'Choose the country from the list'),
    latitude: coordinate('Latitude', 90, '48.137'),
    longitude: coordinate('Longitude', 180, '11.575'),
    placeId: z.string(),
    // An IANA zone picked from the list (the service checks it); empty: the service finds it.
    timeZone: z.string(),
    ownerId: z.string(),
  })
  .refine((v) => (v.latitude === '') === (v.longitude === ''), {
    message: 'Enter both latitude and longitude, or neither',
    path: ['longitude'],
  });
export type SiteFormValues = z.infer<typeof siteFormSchema>;

export const EMPTY_SITE_FORM: SiteFormValues = {
  name: '',
  displayAddress: '',
  streetNumber: '',
  streetName: '',
  postalCode: '',
  locality: '',
  state: '',
  country: '',
  latitude: '',
  longitude: '',
  placeId: '',
  timeZone: '',
  ownerId: '',
};

const coordinateText = (value: number) => (value === NO_POSITION ? '' : String(value));

/**
 * A saved site as form values (its position blank when it has none). A country saved as typed
 * before it was chosen from a list ("Germany") becomes its code; one that cannot be told stays as
 * saved, which the list does not hold, so the person picks it before saving.
 */
export function siteFormValuesOf(site: Site): SiteFormValues {
  const noPosition = site.latitude === NO_POSITION && site.longitude === NO_POSITION;
  return {
    name: site.name,
    displayAddress: site.displayAddress,
    streetNumber: site.streetNumber,
    streetName: site.streetName,
    postalCode: site.postalCode,
    locality: site.locality,
    state: site.state,
    country: countryCodeOf(site.country) ?? site.country,
    latitude: noPosition ? '' : coordinateText(site.latitude),
    longitude: noPosition ? '' : coordinateText(site.longitude),
    placeId: site.placeId ?? '',
    timeZone: site.timeZone,
    ownerId: site.ownerId ? String(site.ownerId) : '',
  };
}

/**
 * Form values as the site payload. A position left blank is sent as -1/-1, the "no geometry"
 * value of specification §3.
 */
export function sitePayloadFromForm(values: SiteFormValues): SitePayloadInput {
  return {
    name: values.name.trim(),
    displayAddress: values.displayAddress.trim(),
    streetNumber: values.streetNumber.trim(),
    streetName: values.streetName.trim(),
    postalCode: values.postalCode.trim(),
    locality: values.locality.trim(),
    state: values.state.trim(),
    country: values.country.trim(),
    latitude: values.latitude.trim() === '' ? NO_POSITION : coordinateOf(values.latitude),
    longitude: values.longitude.trim() === '' ? NO_POSITION : coordinateOf(values.longitude),
    placeId: values.placeId || null,
    ...(values.timeZone ? { timeZone: values.timeZone } : {}),
    ownerId: values.ownerId ? Number(values.ownerId) : null,
  };
}
