import { describe, expect, it } from 'vitest';
import { suggestedZone, zoneAtPosition, zoneOfCountry } from '../../src/time-zones/site-zone.ts';

describe("a site's suggested time zone", () => {
  it('is the zone at its position', () => {
    expect(zoneAtPosition(30.2672, -97.7431)).toBe('America/Chicago');
    expect(zoneAtPosition(33.4484, -112.074)).toBe('America/Phoenix');
    expect(zoneAtPosition(48.1372, 11.5755)).toBe('Europe/Berlin');
    expect(zoneAtPosition(-33.8688, 151.2093)).toBe('Australia/Sydney');
  });

  it('is none for a position off the globe', () => {
    expect(zoneAtPosition(91, 0)).toBeUndefined();
    expect(zoneAtPosition(Number.NaN, 0)).toBeUndefined();
  });

  it("is the country's only zone, or its main one, by code or English name", () => {
    expect(zoneOfCountry('FR')).toBe('Europe/Paris');
    expect(zoneOfCountry('jp')).toBe('Asia/Tokyo');
    expect(zoneOfCountry('Germany')).toBe('Europe/Berlin');
    expect(zoneOfCountry(' united states ')).toBe('America/New_York');
    expect(zoneOfCountry('USA')).toBe('America/New_York');
    expect(zoneOfCountry('Atlantis')).toBeUndefined();
    expect(zoneOfCountry('')).toBeUndefined();
  });

  it('comes from the position before the country, and from the country without a position', () => {
    expect(suggestedZone({ latitude: 36.1699, longitude: -115.1398, country: 'US' })).toBe(
      'America/Los_Angeles',
    );
    expect(suggestedZone({ latitude: -1, longitude: -1, country: 'AT' })).toBe('Europe/Vienna');
    expect(suggestedZone({ latitude: -1, longitude: -1, country: '' })).toBeUndefined();
  });
});
