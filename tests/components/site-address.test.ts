import { describe, expect, it } from 'vitest';
import type { AddressRecord, PlaceLike } from '../../src/components/address/address-record.ts';
import {
  addressLine,
  addressShown,
  addressStep,
  afterPartEdited,
  openAddress,
  partsListed,
  partsOf,
  positionNote,
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

  /** Rua Augusta 100 in Lisbon, as the maps suggestions give it. */
  const LISBON: AddressRecord = {
    gmID: 'g1',
    icon: '',
    url: '',
    placeID: 'place-lisbon',
    displayAddress: 'R. Augusta 100, 1100-053 Lisboa, Portugal',
    name: 'R. Augusta 100',
    vicinity: 'Lisboa',
    streetNumber: '100',
    streetName: 'Rua Augusta',
    postalCode: null,
    sublocality: '',
    locality: { long: 'Lisboa', short: 'Lisboa' },
    state: { long: 'Lisboa', short: '' },
    country: { long: 'Portugal', short: 'PT' },
    geoLocation: { latitude: 38.71, longitude: -9.137 },
  };
  const LISBON_PLACE: PlaceLike = {
    address_components: [{ long_name: '1100-053', short_name: '1100-053', types: ['postal_code'] }],
  };
  const picked = (position = { latitude: 38.71, longitude: -9.137 }) =>
    addressStep(openAddress(SAVED), {
      type: 'place.picked',
      record: LISBON,
      position,
      place: LISBON_PLACE,
    });

  it('fills every part, the place and its position from a place picked, and shows its own line', () => {
    const { state, fill } = picked();
    expect(fill).toEqual({
      streetNumber: '100',
      streetName: 'Rua Augusta',
      postalCode: '1100-053',
      locality: 'Lisboa',
      state: 'Lisboa',
      country: 'PT',
      placeId: 'place-lisbon',
      latitude: '38.71',
      longitude: '-9.137',
    });
    const values = { ...SAVED, ...fill };
    expect(addressShown(state, values, SAVED)).toEqual({
      line: LISBON.displayAddress,
      zone: 'Europe/Lisbon',
      suggested: 'Europe/Lisbon',
    });
    // A place without geometry leaves the position blank rather than at -1, -1.
    expect(picked({ latitude: -1, longitude: -1 }).fill).toMatchObject({ latitude: '', longitude: '' });
  });

  it('clears the position of a place picked once a part is edited, says why, and says so until a place is picked again', () => {
    const first = picked();
    const values = { ...SAVED, ...first.fill, streetNumber: '101' };
    const edited = addressStep(first.state, { type: 'part.edited', values });
    expect(edited.fill).toEqual({ latitude: '', longitude: '', placeId: '' });
    expect(edited.state.known).toBeNull();
    expect(positionNote(edited.state, true)).toMatch(
      /^The position of the address picked before was cleared/,
    );
    expect(addressShown(edited.state, { ...values, ...edited.fill }, SAVED).line).toBe(
      'Rua Augusta 101, 1100-053 Lisboa, Lisboa, PT',
    );
    // A second edit keeps the note (there is nothing left to clear).
    const again = addressStep(edited.state, {
      type: 'part.edited',
      values: { ...values, postalCode: '1100' },
    });
    expect(again.fill).toEqual({});
    expect(again.state.positionCleared).toBe(true);
    // Picking a place again puts the position back and the note away.
    const repicked = addressStep(again.state, {
      type: 'place.picked',
      record: LISBON,
      position: LISBON.geoLocation,
      place: LISBON_PLACE,
    });
    expect(repicked.state.positionCleared).toBe(false);
    expect(positionNote(repicked.state, true)).toBe(
      'Filled in when you pick an address; you may also enter it yourself, or leave it blank.',
    );
    expect(positionNote(repicked.state, false)).toBe(
      'Optional: enter the latitude and longitude, or leave them blank.',
    );
  });

  it("keeps a saved site's position when a part is edited, and drops only its place", () => {
    const edited = addressStep(openAddress(SAVED), {
      type: 'part.edited',
      values: { ...SAVED, streetNumber: '9' },
    });
    expect(edited.fill).toEqual({ placeId: '' });
    expect(edited.state).toEqual({ known: null, positionCleared: false, zonePicked: false });
    // An edit that leaves the parts as they were changes nothing.
    expect(addressStep(openAddress(SAVED), { type: 'part.edited', values: SAVED })).toEqual({
      state: openAddress(SAVED),
      fill: {},
    });
  });

  it('gives back the very state it was given when an edit changes nothing of it, so the form is not drawn again', () => {
    const opened = openAddress(SAVED);
    expect(
      addressStep(opened, { type: 'part.edited', values: { ...SAVED, locality: 'München ' } }).state,
    ).toBe(opened);
    // A new site: every key typed into a part leaves the state as it was.
    const blank = openAddress(EMPTY_SITE_FORM);
    expect(
      addressStep(blank, { type: 'part.edited', values: { ...EMPTY_SITE_FORM, streetName: 'H' } }).state,
    ).toBe(blank);
    // Once the line is dropped, further edits keep that state too.
    const dropped = addressStep(opened, {
      type: 'part.edited',
      values: { ...SAVED, streetNumber: '9' },
    }).state;
    expect(dropped).not.toBe(opened);
    expect(
      addressStep(dropped, { type: 'part.edited', values: { ...SAVED, streetNumber: '91' } }).state,
    ).toBe(dropped);
  });

  it('reads the parts of a form watching them in the order the parts are listed', () => {
    expect(partsListed(['Harbour Rd', '12', '2000', 'Portside', 'NSW', 'AU'])).toEqual({
      streetName: 'Harbour Rd',
      streetNumber: '12',
      postalCode: '2000',
      locality: 'Portside',
      state: 'NSW',
      country: 'AU',
    });
  });

  it('keeps a zone the person picked, wherever the address moves after', () => {
    const zoned = addressStep(openAddress(SAVED), { type: 'zone.picked', zone: 'Europe/Berlin' });
    expect(zoned.fill).toEqual({ timeZone: 'Europe/Berlin' });
    const moved = addressStep(zoned.state, {
      type: 'place.picked',
      record: LISBON,
      position: LISBON.geoLocation,
      place: LISBON_PLACE,
    });
    const values = { ...SAVED, ...zoned.fill, ...moved.fill };
    expect(addressShown(moved.state, values, SAVED)).toMatchObject({
      zone: 'Europe/Berlin',
      suggested: 'Europe/Lisbon',
    });
    // Not picked, the zone follows the place.
    expect(addressShown(picked().state, { ...SAVED, ...picked().fill }, SAVED).zone).toBe('Europe/Lisbon');
  });
});
