import { describe, expect, it } from 'vitest';
import { composeAddressLine, missingParts, sameParts } from '../../src/components/address/address-line.ts';

const parts = (over: Partial<Parameters<typeof composeAddressLine>[0]>) => ({
  streetNumber: '',
  streetName: '',
  postalCode: '',
  locality: '',
  state: '',
  country: '',
  ...over,
});

describe('the address line made from its parts', () => {
  it('writes each country its own way and leaves out empty parts', () => {
    expect(
      composeAddressLine(
        parts({
          streetNumber: '12',
          streetName: 'Paddock Lane',
          postalCode: '78620',
          locality: 'Dripping Springs',
          state: 'TX',
          country: 'US',
        }),
      ),
    ).toBe('12 Paddock Lane, Dripping Springs, TX 78620, US');
    expect(
      composeAddressLine(
        parts({
          streetNumber: '5',
          streetName: 'Hauptstraße',
          postalCode: '10115',
          locality: 'Berlin',
          country: 'DE',
        }),
      ),
    ).toBe('Hauptstraße 5, 10115 Berlin, DE');
    expect(
      composeAddressLine(
        parts({
          streetNumber: '12',
          streetName: 'Market St',
          postalCode: '2000',
          locality: 'Sydney',
          state: 'NSW',
          country: 'AU',
        }),
      ),
    ).toBe('12 Market St, Sydney, NSW 2000, AU');
    expect(
      composeAddressLine(
        parts({ streetName: '  Mill   Lane ', locality: 'Ashford', country: 'UK', postalCode: 'TN24 8DH' }),
      ),
    ).toBe('Mill Lane, TN24 8DH Ashford, UK');
  });

  it('names what a half-filled address lacks, and compares parts', () => {
    expect(missingParts(parts({ streetName: '12 Market St' }))).toEqual(['locality', 'country']);
    expect(missingParts(parts({ streetName: 'A', locality: 'B', country: 'C' }))).toEqual([]);
    expect(sameParts(parts({ locality: 'Austin ' }), parts({ locality: 'Austin' }))).toBe(true);
    expect(sameParts(parts({ locality: 'Austin' }), parts({ locality: 'Sydney' }))).toBe(false);
  });
});
