import { describe, expect, it } from 'vitest';
import {
  addressLine,
  afterPartEdited,
  partsOf,
  savedLine,
  siteZone,
} from '../../src/features/sites/site-address.ts';
import { EMPTY_SITE_FORM, type SiteFormValues } from '../../src/features/sites/site-form-schema.ts';

const SAVED: SiteFormValues = {
  ...EMPTY_SITE_FORM,
  name: 'Barn',
  displayAddress: 'Marienplatz 8, 80331 München, Germany',
  streetName: 'Marienplatz',
  streetNumber: '8',
  postalCode: '80331',
  locality: 'München',
  country: 'DE',
  latitude: '48.137',
  longitude: '11.575',
  placeId: 'place-1',
  timeZone: 'Europe/Berlin',
};

describe("the site form's address rule", () => {
  it('keeps the saved line while the parts are as saved, and makes it from the parts once one changes', () => {
    const known = savedLine(SAVED);
    expect(addressLine(known, partsOf(SAVED))).toBe(SAVED.displayAddress);
    // Only spacing differs: still the same address.
    expect(addressLine(known, partsOf({ ...SAVED, locality: ' München ' }))).toBe(SAVED.displayAddress);
    expect(addressLine(known, partsOf({ ...SAVED, streetNumber: '9' }))).toBe(
      'Marienplatz 9, 80331 München, DE',
    );
    expect(savedLine(EMPTY_SITE_FORM)).toBeNull();
  });

  it('drops the place of an edited address, and the position too when it came with a place picked now', () => {
    const saved = savedLine(SAVED);
    const edited = partsOf({ ...SAVED, streetNumber: '9' });
    expect(afterPartEdited(saved, partsOf(SAVED))).toEqual({
      known: saved,
      clearPlace: false,
      clearPosition: false,
    });
    expect(afterPartEdited(saved, edited)).toEqual({ known: null, clearPlace: true, clearPosition: false });
    const picked = saved && { ...saved, picked: true };
    expect(afterPartEdited(picked, edited)).toEqual({ known: null, clearPlace: true, clearPosition: true });
    expect(afterPartEdited(null, edited)).toEqual({ known: null, clearPlace: false, clearPosition: false });
  });

  it('keeps a saved or picked zone, and follows the position and country otherwise', () => {
    expect(siteZone(SAVED, SAVED, false)).toBe('Europe/Berlin');
    const inLisbon = { ...SAVED, latitude: '38.722', longitude: '-9.139', country: 'PT' };
    expect(siteZone(inLisbon, SAVED, false)).toBe('Europe/Lisbon');
    expect(siteZone({ ...inLisbon, timeZone: 'Europe/Berlin' }, SAVED, true)).toBe('Europe/Berlin');
    // A new site with only its country: the country's zone.
    expect(siteZone({ ...EMPTY_SITE_FORM, country: 'PT' }, EMPTY_SITE_FORM, false)).toBe('Europe/Lisbon');
  });
});
