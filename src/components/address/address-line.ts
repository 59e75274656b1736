/** The parts of a site's address that people type, or that a picked place fills in. */
export interface AddressParts {
  streetNumber: string;
  streetName: string;
  postalCode: string;
  locality: string;
  state: string;
  country: string;
}

export const ADDRESS_PART_KEYS = [
  'streetName',
  'streetNumber',
  'postalCode',
  'locality',
  'state',
  'country',
] as const satisfies readonly (keyof AddressParts)[];

/** Countries that write the number after the street name ("Hauptstraße 5"), by code or name. */
const NUMBER_AFTER = new Set(
  'AT BE BR CH CL CZ DE DK ES FI HR HU IS IT MX NL NO PL PT SE SI SK AUSTRIA BELGIUM BRAZIL CHILE CZECHIA DENMARK FINLAND GERMANY ICELAND ITALY MEXICO NETHERLANDS NORWAY POLAND PORTUGAL SPAIN SWEDEN SWITZERLAND'.split(
    ' ',
  ),
);
/** Countries that write "Town, STATE 78701" rather than "78701 Town", by code or name. */
const STATE_THEN_POSTAL = new Set(
  'US USA CA AU AUSTRALIA CANADA'.split(' ').concat(['UNITED STATES', 'UNITED STATES OF AMERICA']),
);

const tidy = (text: string) => text.trim().replace(/\s+/g, ' ');

/**
 * The one-line address of a site, made from its parts in the way the country writes addresses:
 * "1100 Congress Ave, Austin, TX 78701, US", "Hauptstraße 5, 10115 Berlin, DE",
 * "12 Market St, 2000 Sydney, NSW, AU" is written "12 Market St, Sydney, NSW 2000, AU". Empty
 * parts are left out.
 *
 * @example composeAddressLine({ streetNumber: '12', streetName: 'Paddock Lane', postalCode: '78620',
 *   locality: 'Dripping Springs', state: 'TX', country: 'US' })
 * // '12 Paddock Lane, Dripping Springs, TX 78620, US'
 */
export function composeAddressLine(parts: AddressParts): string {
  const p = Object.fromEntries(
    ADDRESS_PART_KEYS.map((key) => [key, tidy(parts[key])]),
  ) as unknown as AddressParts;
  const country = p.country.toUpperCase();
  const street = NUMBER_AFTER.has(country) ? [p.streetName, p.streetNumber] : [p.streetNumber, p.streetName];
  const pieces = STATE_THEN_POSTAL.has(country)
    ? [
        street.filter(Boolean).join(' '),
        p.locality,
        [p.state, p.postalCode].filter(Boolean).join(' '),
        p.country,
      ]
    : [
        street.filter(Boolean).join(' '),
        [p.postalCode, p.locality].filter(Boolean).join(' '),
        p.state,
        p.country,
      ];
  return pieces.filter(Boolean).join(', ');
}

/** Whether two sets of parts are the same address (ignoring spaces at either end). */
export function sameParts(a: AddressParts, b: AddressParts): boolean {
  return ADDRESS_PART_KEYS.every((key) => tidy(a[key]) === tidy(b[key]));
}

/** What a saved address must hold: a street, a town and a country (the rest may be empty). */
export function missingParts(parts: AddressParts): ('streetName' | 'locality' | 'country')[] {
  return (['streetName', 'locality', 'country'] as const).filter((key) => tidy(parts[key]) === '');
}
