import { z } from 'zod';
import { idSchema } from './ids.ts';
import { SITE_SORT_KEYS } from './list-sort-keys.ts';
import { pageOf, sortedListQuerySchema } from './page.ts';
import { timeZoneSchema } from './time-zones.ts';

const text = (max: number) => z.string().trim().max(max);

/**
 * `POST /sites` and `PUT /sites/{id}`: a site and its address, as produced by the address control
 * (`displayAddress`, street, postal code, locality, state, country, coordinates, place id).
 * `ownerId` attaches an owner user who then sees the site. `timeZone` is the IANA zone whose
 * midnight starts the site's days; left out, the service takes the zone at the position, else the
 * country's, else its configured `TELEMETRY_TIME_ZONE`.
 */
export const sitePayloadSchema = z.object({
  name: text(120).min(1),
  displayAddress: text(300).min(1),
  streetNumber: text(20).default(''),
  streetName: text(120).default(''),
  postalCode: text(20).default(''),
  locality: text(120).default(''),
  state: text(120).default(''),
  country: text(120).default(''),
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  placeId: text(300).nullable().default(null),
  timeZone: timeZoneSchema.optional(),
  ownerId: idSchema.nullable().default(null),
});
export type SitePayload = z.infer<typeof sitePayloadSchema>;
export type SitePayloadInput = z.input<typeof sitePayloadSchema>;

/**
 * `PUT /sites/{id}`: the site payload, except that a missing `ownerId` keeps the owner as it is;
 * `ownerId: null` clears it, and another id replaces it (the old owner loses the `owner` role).
 * A missing `timeZone` keeps the zone, unless the position or the country changed: then the zone
 * is found again as on creation.
 */
export const siteUpdateSchema = sitePayloadSchema.extend({ ownerId: idSchema.nullable().optional() });
export type SiteUpdate = z.infer<typeof siteUpdateSchema>;

/** A site as listed. */
export const siteSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  displayAddress: z.string(),
  streetNumber: z.string(),
  streetName: z.string(),
  postalCode: z.string(),
  locality: z.string(),
  state: z.string(),
  country: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  placeId: z.string().nullable(),
  /** The IANA zone of the site's days, e.g. `America/Chicago`. */
  timeZone: z.string(),
  ownerId: z.number().int().nullable(),
  installerId: z.number().int().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Site = z.infer<typeof siteSchema>;

/** `GET /fleet/sites/all/{userId}/{page}` and `GET /fleet/site-list/{userId}/{page}`. */
export const sitePageSchema = pageOf(siteSchema);

/** The query of every site list: search, page size, sort. */
export const siteListQuerySchema = sortedListQuerySchema(SITE_SORT_KEYS);

/** Site roles set by `PUT /fleet/site-access/change-roles`. */
export const siteRoleSchema = z.enum(['owner', 'installer', 'viewer', 'configurator']);
export type SiteRole = z.infer<typeof siteRoleSchema>;

/** One user's access to a site: roles and the access flag. */
export const siteAccessSchema = z.object({
  siteId: z.number().int(),
  userId: z.number().int(),
  roles: z.array(siteRoleSchema),
  access: z.boolean(),
});
export type SiteAccess = z.infer<typeof siteAccessSchema>;

/** `GET /fleet/sites/{id}`: the site, who has access, and how many devices are installed. */
export const siteDetailsSchema = siteSchema.extend({
  access: z.array(siteAccessSchema.extend({ main_email: z.string(), name: z.string() })),
  deviceCount: z.number().int(),
});
export type SiteDetails = z.infer<typeof siteDetailsSchema>;

/** `PUT /fleet/site-access/change-roles`. An empty list keeps the user attached with no role. */
export const changeRolesRequestSchema = z.object({
  siteId: idSchema,
  userId: idSchema,
  roles: z.array(siteRoleSchema).max(4),
});
export type ChangeRolesRequest = z.infer<typeof changeRolesRequestSchema>;

/** `PUT /fleet/site-access/set-access`: switch a user's access off (or on) without losing roles. */
export const setAccessRequestSchema = z.object({
  siteId: idSchema,
  userId: idSchema,
  access: z.boolean(),
});
export type SetAccessRequest = z.infer<typeof setAccessRequestSchema>;
