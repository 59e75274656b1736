import { describe, expect, it } from 'vitest';
import {
  isAddressValid,
  type PlaceLike,
  postalCodeText,
  toAddressRecord,
} from '../../src/components/address/address-record.ts';

const capitol: PlaceLike = {
  id: 'gm-1',
  place_id: 'ChIJ-capitol',
  icon: 'https://maps.example/icon.png',
  url: 'https://maps.example/?cid=1',
  formatted_address: '1100 Congress Ave, Austin, TX 78701, USA',
  name: 'Texas Capitol',
  vicinity: 'Downtown Austin',
  address_components: [
    { long_name: '1100', short_name: '1100', types: ['street_number'] },
    { long_name: 'Congress Avenue', short_name: 'Congress Ave', types: ['route'] },
    {
      long_name: 'Downtown',
      short_name: 'Downtown',
      types: ['sublocality_level_1', 'sublocality', 'political'],
    },
    { long_name: 'Austin', short_name: 'Austin', types: ['locality', 'political'] },
    { long_name: 'Texas', short_name: 'TX', types: ['administrative_area_level_1', 'political'] },
    { long_name: 'United States', short_name: 'US', types: ['country', 'political'] },
    { long_name: '78701', short_name: '78701', types: ['postal_code'] },
  ],
  geometry: { location: { lat: () => 30.2747, lng: () => -97.7404 } },
};

describe('the address record of a selected place', () => {
  it('holds every field of specification §3, the postal code as a number', () => {
    expect(toAddressRecord(capitol)).toEqual({
      gmID: 'gm-1',
      icon: 'https://maps.example/icon.png',
      url: 'https://maps.example/?cid=1',
      placeID: 'ChIJ-capitol',
      displayAddress: '1100 Congress Ave, Austin, TX 78701, USA',
      name: 'Texas Capitol',
      vicinity: 'Downtown Austin',
      streetNumber: '1100',
      streetName: 'Congress Avenue',
      postalCode: 78701,
      sublocality: 'Downtown',
      locality: { long: 'Austin', short: 'Austin' },
      state: { long: 'Texas', short: 'TX' },
      country: { long: 'United States', short: 'US' },
      geoLocation: { latitude: 30.2747, longitude: -97.7404 },
    });
  });

  it('puts -1 for both coordinates when the place has no geometry', () => {
    const { geometry: _, ...withoutGeometry } = capitol;
    expect(toAddressRecord(withoutGeometry).geoLocation).toEqual({ latitude: -1, longitude: -1 });
  });

  it('gives a null postal code when it is not a number, and keeps its text for the site', () => {
    const london: PlaceLike = {
      place_id: 'ChIJ-london',
      formatted_address: '10 Downing St, London SW1A 2AA, UK',
      address_components: [
        { long_name: 'SW1A 2AA', short_name: 'SW1A 2AA', types: ['postal_code'] },
        { long_name: 'London', short_name: 'London', types: ['postal_town'] },
      ],
    };
    const record = toAddressRecord(london);
    expect(record.postalCode).toBeNull();
    expect(postalCodeText(london)).toBe('SW1A 2AA');
    expect(record.locality).toEqual({ long: 'London', short: 'London' });
  });

  it('leaves every text empty for a place that only has an id (place-id-only)', () => {
    const record = toAddressRecord({ place_id: 'ChIJ-only' });
    expect(record).toMatchObject({
      placeID: 'ChIJ-only',
      displayAddress: '',
      streetName: '',
      postalCode: null,
    });
    expect(record.state).toEqual({ long: '', short: '' });
  });
});

describe('address validity (specification §5)', () => {
  it('is invalid only when required and empty', () => {
    expect(isAddressValid('', true)).toBe(false);
    expect(isAddressValid('   ', true)).toBe(false);
    expect(isAddressValid('', false)).toBe(true);
    expect(isAddressValid('1 Main St', true)).toBe(true);
  });
});
