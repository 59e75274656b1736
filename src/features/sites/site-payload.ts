import type { Site, SitePayloadInput } from '../../../contracts/sites.ts';

/** The payload that saves a site unchanged; callers override what they edit. */
export function sitePayloadOf(site: Site): SitePayloadInput {
  return {
    name: site.name,
    displayAddress: site.displayAddress,
    streetNumber: site.streetNumber,
    streetName: site.streetName,
    postalCode: site.postalCode,
    locality: site.locality,
    state: site.state,
    country: site.country,
    latitude: site.latitude,
    longitude: site.longitude,
    placeId: site.placeId,
    timeZone: site.timeZone,
    ownerId: site.ownerId,
  };
}

/** "30.26720, -97.74310", or "No position" for the -1/-1 of an address without geometry. */
export function positionText(site: { latitude: number; longitude: number }): string {
  if (site.latitude === -1 && site.longitude === -1) return 'No position';
  return `${site.latitude.toFixed(5)}, ${site.longitude.toFixed(5)}`;
}
