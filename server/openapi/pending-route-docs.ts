import { z } from 'zod';
import {
  configHistoryEntrySchema,
  configHistoryPageSchema,
  configHistoryQuerySchema,
  configHistoryRecordSchema,
  historySerialSchema,
} from '../../contracts/config-history.ts';
import {
  commandLogQuerySchema,
  commandLogSchema,
  deviceAnswerSchema,
  deviceCommandSchema,
  deviceSecretSchema,
  onlineDevicesQuerySchema,
  onlineDevicesSchema,
  serviceCommsSerialSchema,
} from '../../contracts/service-comms.ts';
import type { InputTarget, RouteDescription } from './route-notes.ts';

/** A route described here rather than by its own middleware. */
export interface PendingRouteDoc {
  description: RouteDescription;
  inputs: Partial<Record<InputTarget, z.ZodType>>;
}

const serialParams = z.object({ serial: serviceCommsSerialSchema });
const historyParams = z.object({ serial: historySerialSchema });

/**
 * The configuration-history and devices-online calls still validate inside their handlers; until
 * they describe themselves with `describeRoute` and `validate`, their documentation is kept here,
 * by Hono path.
 */
export const PENDING_CONFIG_ROUTE_DOCS: Readonly<Record<string, PendingRouteDoc>> = {
  'POST /fleet/devices/:serial/config-history': {
    description: {
      summary: 'Record what a verified Bluetooth write changed on a device',
      tag: 'devices',
      example: {
        id: '0b6c3c1e-4a52-4d8e-9a43-3f1f0e6c2d11',
        writtenAt: '2026-11-23T10:15:00.000Z',
        transport: 'web-bluetooth',
        changes: [{ field: 'maxChargeCurrent', label: 'Max charge current', oldValue: '40', newValue: '35' }],
      },
      responses: {
        201: {
          description: 'The stored record (the same record again for an id already stored)',
          schema: configHistoryEntrySchema,
        },
        403: {
          description: 'The caller sees the device without the installer or configurator role on its site',
        },
        404: { description: 'No such device, or the caller may not see it' },
        409: { description: 'Another record already has this id' },
        429: { description: 'Too many records from this user, for this device or from this address' },
      },
    },
    inputs: { param: historyParams, json: configHistoryRecordSchema },
  },
  'GET /fleet/devices/:serial/config-history': {
    description: {
      summary: "A device's configuration history, a page at a time, newest received first",
      tag: 'devices',
      responses: {
        200: {
          description: 'One page of entries and where the next starts',
          schema: configHistoryPageSchema,
        },
        404: { description: 'No such device, or the caller may not see it' },
        429: { description: 'Too many reads from this user or address' },
      },
    },
    inputs: { param: historyParams, query: configHistoryQuerySchema },
  },
  'POST /service-comms/command': {
    description: {
      summary: 'Send a frame to an online device and answer its answer frame (no api-key)',
      tag: 'devices online',
      example: { serialNumber: 'HX5K-24-000123', data: [1, 0, 0] },
      responses: {
        200: { description: "The device's answer frame", schema: deviceAnswerSchema },
        403: {
          description:
            'No configurator or installer role on the site (service_comms_forbidden), or a raw frame from someone who is not company staff (raw_frames_staff_only)',
        },
        429: { description: 'Too many commands from this user or address' },
        404: { description: 'No such device, or the caller may not see it' },
        409: { description: 'device_offline: the device is not connected (or went away mid-command)' },
        504: { description: 'device_timeout: the device did not answer in time' },
      },
    },
    inputs: { json: deviceCommandSchema },
  },
  'GET /service-comms/devices/online': {
    description: {
      summary: 'The devices the caller may see that are connected now (no api-key)',
      tag: 'devices online',
      responses: { 200: { description: 'Online devices by serial number', schema: onlineDevicesSchema } },
    },
    inputs: { query: onlineDevicesQuerySchema },
  },
  'GET /service-comms/devices/:serial/log': {
    description: {
      summary: "A device's commands and answers with who sent them, newest first (no api-key)",
      tag: 'devices online',
      responses: {
        200: {
          description:
            'Log entries; a reader who is not company staff sees a staff sender as "Company staff"',
          schema: commandLogSchema,
        },
        403: { description: 'Not company staff, and no configurator or installer role on the site' },
        404: { description: 'No such device, or the caller may not see it' },
      },
    },
    inputs: { param: serialParams, query: commandLogQuerySchema },
  },
  'POST /service-comms/devices/:serial/secret': {
    description: {
      summary: "Issue (or rotate) a device's secret, answered once (admin; no api-key)",
      tag: 'devices online',
      responses: {
        201: { description: 'The new secret; the old one stops working', schema: deviceSecretSchema },
        403: { description: 'Not an admin' },
        404: { description: 'No such device' },
      },
    },
    inputs: { param: serialParams },
  },
};
