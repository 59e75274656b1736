import type { Selectable } from 'kysely';
import type { Device } from '../contracts/devices.ts';
import type { Site } from '../contracts/sites.ts';
import type { User } from '../contracts/users.ts';
import type { Database } from './db/schema.ts';

/** A site row as the API answers it. */
export function toSite(row: Selectable<Database['sites']>): Site {
  return {
    id: row.id,
    name: row.name,
    displayAddress: row.display_address,
    streetNumber: row.street_number,
    streetName: row.street_name,
    postalCode: row.postal_code,
    locality: row.locality,
    state: row.state,
    country: row.country,
    latitude: row.latitude,
    longitude: row.longitude,
    placeId: row.place_id,
    timeZone: row.time_zone,
    ownerId: row.owner_id,
    installerId: row.installer_id,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** A user row as the API answers it: never the password hash. */
export function toUser(row: Selectable<Database['users']>): User {
  return {
    id: row.id,
    main_email: row.main_email,
    name: row.display_name,
    phone: row.phone,
    role: row.role,
    createdBy: row.created_by,
    createdAt: new Date(row.created_at).toISOString(),
    alarmMail: row.alarm_mail,
  };
}

/** A device row joined with its site's name. */
export function toDevice(row: Selectable<Database['devices']> & { site_name: string }): Device {
  return {
    id: row.id,
    modelId: row.model_id,
    serial: row.serial,
    name: row.name,
    siteId: row.site_id,
    siteName: row.site_name,
    installedAt: new Date(row.installed_at).toISOString(),
    ...(row.claimed_at ? { claimedAt: new Date(row.claimed_at).toISOString() } : {}),
    firmwareVersion: row.firmware_version ?? null,
  };
}
