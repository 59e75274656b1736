import { z } from 'zod';
import { serialNumberPattern } from './devices-list.ts';

/**
 * Devices online (DESIGN.md §10, specification §7): devices hold a WebSocket to the configuration
 * service, and `/service-comms` calls reach them. These paths carry no `api-key`; they need a
 * Bearer token of company staff or of a user with the `configurator` or `installer` site role on
 * the device's site.
 */

/** Longest frame a command may carry: one characteristic write (DESIGN.md §8). */
export const MAX_FRAME_BYTES = 512;

export const serviceCommsSerialSchema = z
  .string()
  .regex(serialNumberPattern, 'a serial number such as HX5K-24-000123');

/** A frame as byte numbers, each 0–255. */
export const frameBytesSchema = z
  .array(z.number().int().min(0, 'bytes are 0–255').max(255, 'bytes are 0–255'))
  .min(1, 'a frame has at least one byte')
  .max(MAX_FRAME_BYTES, `a frame has at most ${MAX_FRAME_BYTES} bytes`);

/**
 * `POST /config/service-comms/command`: the frame to deliver. Answers the device's answer frame in
 * the same shape (specification §7: a command built for a device yields `{serialNumber, data}`).
 * Errors: 400 malformed frame, 403 not allowed, 404 unknown serial, 409 `device_offline`,
 * 504 `device_timeout`.
 */
export const deviceCommandSchema = z.object({
  serialNumber: serviceCommsSerialSchema,
  data: frameBytesSchema,
});
export type DeviceCommand = z.infer<typeof deviceCommandSchema>;

/** The device's answer to a command. */
export const deviceAnswerSchema = deviceCommandSchema;
export type DeviceAnswer = z.infer<typeof deviceAnswerSchema>;

/** One device connected now. */
export const onlineDeviceSchema = z.object({
  serialNumber: z.string(),
  modelId: z.string(),
  connectedAt: z.string(),
});
export type OnlineDevice = z.infer<typeof onlineDeviceSchema>;

/** `GET /config/service-comms/devices/online`: the devices the caller may see that are connected now. */
export const onlineDevicesSchema = z.object({ devices: z.array(onlineDeviceSchema) });
export type OnlineDevices = z.infer<typeof onlineDevicesSchema>;

/** One exchange in a device's command log. `answer` is null when the device did not answer. */
export const commandLogEntrySchema = z.object({
  id: z.number().int(),
  serialNumber: z.string(),
  userId: z.number().int(),
  userEmail: z.string(),
  command: z.array(z.number().int()),
  answer: z.array(z.number().int()).nullable(),
  /** `answered`, or the error code the caller got (`device_offline`, `device_timeout`). */
  outcome: z.string(),
  sentAt: z.string(),
  answeredAt: z.string().nullable(),
});
export type CommandLogEntry = z.infer<typeof commandLogEntrySchema>;

/** `GET /config/service-comms/devices/{serial}/log`: newest first. */
export const commandLogSchema = z.object({ entries: z.array(commandLogEntrySchema) });
export type CommandLog = z.infer<typeof commandLogSchema>;

/**
 * The first message a device sends on `/config/service-comms/devices/ws`: who it is and its secret
 * (issued when the device is registered; stored hashed). Anything else first closes the socket.
 */
export const deviceHelloSchema = z.object({
  type: z.literal('hello'),
  serialNumber: serviceCommsSerialSchema,
  modelId: z.string().min(1).max(32),
  secret: z.string().min(16).max(200),
});
export type DeviceHello = z.infer<typeof deviceHelloSchema>;
