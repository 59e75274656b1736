import { z } from 'zod';
import { serialNumberPattern } from './catalogue.ts';
import { firmwareVersionSchema } from './firmware.ts';

/**
 * Devices online (DESIGN.md §10, specification §7): devices hold a WebSocket to the configuration
 * service, and `/service-comms` calls reach them. These paths carry no `api-key`; they need a
 * Bearer token. Company staff (`company-staff.ts`) send any frame to any device; anyone else who
 * may configure the device (an admin, or the `configurator` or `installer` role on its site)
 * sends only its model's catalogue commands.
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
 * Errors: 400 malformed frame, 403 not allowed (`raw_frames_staff_only` for a frame that is not
 * one of the model's catalogue commands, from anyone but company staff), 404 unknown serial, 409
 * `device_offline`, 429 `rate_limited`, 504 `device_timeout`.
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

/** How the command log names a sender who is company staff to a reader who is not (user id 0). */
export const STAFF_SENDER = 'Company staff';

/**
 * One exchange in a device's command log. `answer` is null when the device did not answer. A
 * reader who is not company staff sees a staff sender as {@link STAFF_SENDER}, never an address.
 */
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
  /** The version of the firmware the device runs (its MCUboot image's); shown as the device's version. */
  firmwareVersion: firmwareVersionSchema.optional(),
});
export type DeviceHello = z.infer<typeof deviceHelloSchema>;

/** Close codes of the device socket (4000–4999 are the application's own, RFC 6455 §7.4.2). */
export const DEVICE_CLOSE = {
  /** The first message was not a hello. */
  badHello: 4400,
  /**
   * No device has that serial number, or the secret does not match its secret: one code and one
   * reason for both, so that the socket does not tell anyone which serial numbers exist.
   */
  wrongSecret: 4401,
  /** The hello's model is not the registered model of that serial number (the secret was right). */
  wrongModel: 4403,
  /** No hello in time. */
  helloTimeout: 4408,
  /** The same device connected again: the older socket is closed. */
  replaced: 4409,
  /** Too many hellos from this address in a minute: try again later. */
  tooManyHellos: 4429,
  /**
   * RFC 6455's "Service Restart": this process is stopping, everything the device sent on the
   * socket was stored and acknowledged or will be sent again; reconnect at once (the balancer
   * sends the device to another process).
   */
  serviceRestart: 1012,
  /**
   * RFC 6455's "Try Again Later": the service holds too many readings it could not store yet (the
   * database is away); what was not acknowledged stays with the device. Reconnect with backoff.
   */
  tryAgainLater: 1013,
} as const;

/** Bounds of the telemetry interval the service asks for (`TELEMETRY_INTERVAL_S`). */
export const TELEMETRY_INTERVAL_LIMITS = { min: 1, max: 3600 } as const;

/**
 * The service's answer to an accepted hello: the device is online from now on, and sends its
 * telemetry every `telemetryIntervalS` seconds.
 */
export const deviceWelcomeSchema = z.object({
  type: z.literal('welcome'),
  serialNumber: z.string(),
  telemetryIntervalS: z
    .number()
    .int()
    .min(TELEMETRY_INTERVAL_LIMITS.min)
    .max(TELEMETRY_INTERVAL_LIMITS.max)
    .optional(),
});
export type DeviceWelcome = z.infer<typeof deviceWelcomeSchema>;

/** Largest telemetry sequence number: an unsigned 32-bit number, as the binary form carries it. */
export const TELEMETRY_SEQ_MAX = 0xffff_ffff;

/**
 * A device's number for one telemetry message: increasing with every reading it takes, kept across
 * its reconnects (a resent reading keeps its number), 0 to {@link TELEMETRY_SEQ_MAX}.
 */
export const telemetrySeqSchema = z
  .number()
  .int()
  .min(0, 'seq is a whole number from 0')
  .max(TELEMETRY_SEQ_MAX, `seq is at most ${TELEMETRY_SEQ_MAX}`);

/**
 * Device → service, unprompted, every `telemetryIntervalS`: exactly the answer frame of `Read live
 * values` (`0x83`, `bufferSize` bytes, CRC-16/MODBUS), decoded by the service with the codec and the
 * model's catalogue entry (docs/device-protocol.md). With `seq` the service acknowledges it once it
 * is stored ({@link DeviceAck}); without, it is stored the same and never acknowledged. The same
 * message may come as a binary WebSocket message instead (`src/codec/telemetry-message.ts`).
 */
export const deviceTelemetrySchema = z.object({
  type: z.literal('telemetry'),
  seq: telemetrySeqSchema.optional(),
  data: frameBytesSchema,
});
export type DeviceTelemetry = z.infer<typeof deviceTelemetrySchema>;

/**
 * Service → device, after a batch of readings committed: every telemetry message the device sent
 * on this socket up to and including `seq` is dealt with (stored, now or before, or refused for
 * good and counted). The device forgets those; it keeps the rest and sends them again after
 * its next reconnect.
 */
export const deviceAckSchema = z.object({ type: z.literal('ack'), seq: telemetrySeqSchema });
export type DeviceAck = z.infer<typeof deviceAckSchema>;

/**
 * How fast one device may send telemetry: more messages than this in a second (a burst of this
 * many is allowed) are refused as `flood`. A device sending its backlog keeps to
 * {@link TELEMETRY_RESEND_PER_S}, well under it.
 */
export const TELEMETRY_MAX_PER_S = 20;

/** How many kept readings a device sends a second after a reconnect (the simulated devices do). */
export const TELEMETRY_RESEND_PER_S = 10;

/** Service → device: deliver a frame; the device answers with the same `id`. */
export const deviceSocketCommandSchema = z.object({
  type: z.literal('command'),
  id: z.number().int().min(0),
  data: frameBytesSchema,
});
export type DeviceSocketCommand = z.infer<typeof deviceSocketCommandSchema>;

/** Device → service: the answer frame to the command with this `id`. */
export const deviceSocketAnswerSchema = z.object({
  type: z.literal('answer'),
  id: z.number().int().min(0),
  data: frameBytesSchema,
});
export type DeviceSocketAnswer = z.infer<typeof deviceSocketAnswerSchema>;

/** `POST /config/service-comms/devices/{serial}/secret` (admin): the new secret, shown once. */
export const deviceSecretSchema = z.object({ serialNumber: z.string(), secret: z.string() });
export type DeviceSecret = z.infer<typeof deviceSecretSchema>;

/** Query of `GET /config/service-comms/devices/{serial}/log`. */
export const commandLogQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** Query of `GET /config/service-comms/devices/online`: `q` matches serial numbers (case-insensitive). */
export const onlineDevicesQuerySchema = z.object({ q: z.string().trim().max(40).optional() });

/**
 * Where a simulated device is installed, and since when (epoch ms): its site's position and
 * country give it its sun and its grid, its install date the start of its counters.
 */
export const simulatedPlaceSchema = z.object({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  country: z.string(),
  installedAt: z.number(),
});
export type SimulatedPlace = z.infer<typeof simulatedPlaceSchema>;

/**
 * `DATA_DIR/simulated-devices.json`: the demo devices that `npm start` runs as simulated devices,
 * with their secrets and where they are. Written only for a database seeded with the demo, readable
 * by its owner only.
 */
export const simulatedDevicesFileSchema = z.object({
  devices: z.array(
    z.object({
      serialNumber: z.string(),
      modelId: z.string(),
      secret: z.string(),
      place: simulatedPlaceSchema.optional(),
    }),
  ),
});
export type SimulatedDevicesFile = z.infer<typeof simulatedDevicesFileSchema>;

/** The file's name inside DATA_DIR. */
export const SIMULATED_DEVICES_FILE = 'simulated-devices.json';
