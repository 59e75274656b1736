import { describe, expect, it } from 'vitest';
import { countries, countryCodeOf, isCountryCode } from '../../src/components/address/countries.ts';
import { coordinateOf, siteFormSchema, siteFormValuesOf } from '../../src/features/sites/site-form-schema.ts';

describe('the country list', () => {
  it("names every country in the reader's language, sorted as that language sorts", () => {
    const english = countries('en');
    expect(english.length).toBe(250);
    expect(english.find((c) => c.code === 'DE')?.name).toBe('Germany');
    expect(countries('de').find((c) => c.code === 'DE')?.name).toBe('Deutschland');
    const names = countries('de').map((c) => c.name);
    // "Österreich" sorts with O in German, not after Z.
    expect(names.indexOf('Österreich')).toBeLessThan(names.indexOf('Polen'));
  });

  it('tells the code of a country saved as typed before the list, or says it cannot', () => {
    expect(countryCodeOf('us', 'en')).toBe('US');
    expect(countryCodeOf(' germany ', 'en')).toBe('DE');
    expect(countryCodeOf('Österreich', 'de')).toBe('AT');
    expect(countryCodeOf('Osterreich', 'de')).toBe('AT');
    expect(countryCodeOf('Germny', 'en')).toBeNull();
    expect(countryCodeOf('', 'en')).toBeNull();
    expect(isCountryCode('XK')).toBe(true);
    expect(isCountryCode('de')).toBe(false);
  });
});

const SITE = {
  id: 1,
  name: 'Harbour Workshop',
  displayAddress: '12 Harbour Rd, Portside, AU',
  streetNumber: '12',
  streetName: 'Harbour Rd',
  postalCode: '',
  locality: 'Portside',
  state: '',
  country: 'Australia',
  latitude: -33.86,
  longitude: 151.2,
  timeZone: 'Australia/Sydney',
  placeId: null,
  ownerId: null,
  installerId: null,
  createdAt: '2026-11-25T01:57:27Z',
  updatedAt: '2026-11-25T01:57:27Z',
};

describe('the site form', () => {
  it('takes latitude and longitude with a decimal point or a decimal comma', () => {
    expect(coordinateOf('48,137')).toBe(48.137);
    expect(coordinateOf(' -33.86 ')).toBe(-33.86);
    expect(coordinateOf(',5')).toBe(0.5);
    for (const bad of ['1,234.5', '48,1,3', '', '1e3', '0x10', 'abc', '4 8'])
      expect(coordinateOf(bad)).toBeNaN();
    const values = { ...siteFormValuesOf(SITE), latitude: '-33,86', longitude: '151,2' };
    expect(siteFormSchema.safeParse(values).success).toBe(true);
    const wrong = siteFormSchema.safeParse({ ...values, latitude: '91,5' });
    expect(wrong.error?.issues[0]?.message).toBe(
      'Latitude is a number from -90 to 90, such as 48.137 or 48,137',
    );
  });

  it('holds a country from the list: a typed name becomes its code, an unknown one must be picked', () => {
    expect(siteFormValuesOf(SITE).country).toBe('AU');
    const unknown = siteFormValuesOf({ ...SITE, country: 'Austrlia' });
    expect(unknown.country).toBe('Austrlia');
    expect(siteFormSchema.safeParse(unknown).error?.issues.map((i) => i.message)).toEqual([
      'Choose the country from the list',
    ]);
  });
});
