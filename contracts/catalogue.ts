import { z } from 'zod';

/** A model's serial prefix: two to eight upper-case letters and digits (`HX5K`). */
export const serialPrefixPattern = /^[A-Z0-9]{2,8}$/;

/**
 * Serial numbers such as `HX5K-24-000123`: a serial prefix, a two-digit year, a six-digit number.
 * The one pattern for serials: the catalogue, the device queries and the simulator agree on it.
 */
export const serialNumberPattern = /^[A-Z0-9]{2,8}-\d{2}-\d{6}$/;

/** A 128-bit Bluetooth UUID in lower case, as Web Bluetooth expects it. */
const uuidSchema = z
  .string()
  .regex(
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    'must be a lower-case 128-bit UUID',
  );

/** One command a device understands: written as byte 0 of a command frame. */
export const commandSchema = z.object({
  name: z.string().min(1),
  opCode: z.number().int().min(0).max(255),
});
export type Command = z.infer<typeof commandSchema>;

/** Where and how big command frames are written (and answers read back, same characteristic). */
export const writeDefinitionSchema = z.object({
  /** Size of every command and answer frame in bytes; the CRC takes the last two. */
  bufferSize: z.number().int().min(3).max(512),
  service: uuidSchema,
  characteristic: uuidSchema,
});
export type WriteDefinition = z.infer<typeof writeDefinitionSchema>;

/** One device model of the catalogue (a devices-list file), keyed by its model id (e.g. `HX-5000`). */
export const deviceEntrySchema = z.object({
  /** Key into the convert list, naming the `{product}-to-form.json` file. */
  productKey: z.string().regex(/^[a-z0-9]+$/, 'must be lower-case letters and digits'),
  /** Display name, e.g. "Helios HX-5000 Hybrid Inverter". */
  name: z.string().min(1),
  /** Serial numbers start with this prefix (`HX5K-24-000123`); devices advertise their serial as BLE name. */
  serialPrefix: z.string().regex(serialPrefixPattern, 'must be 2 to 8 upper-case letters and digits'),
  commands: z.array(commandSchema).min(1),
  write: writeDefinitionSchema,
});
export type DeviceEntry = z.infer<typeof deviceEntrySchema>;

/** `devices-list.json`, `devices-list-e1.json` and the answer of `GET /config/devices-list`. */
export const catalogueSchema = z.object({
  listVersion: z.number().int().min(-1),
  devicesList: z.record(z.string().min(1), deviceEntrySchema),
});
export type Catalogue = z.infer<typeof catalogueSchema>;

/** `convert-list.json`: product key → name of its device-configuration file. */
export const convertListSchema = z.record(
  z.string().regex(/^[a-z0-9]+$/, 'product keys are lower-case letters and digits'),
  z.string().regex(/^[a-z0-9]+-to-form\.json$/, 'must name a {product}-to-form.json file'),
);
export type ConvertList = z.infer<typeof convertListSchema>;

/** Names of the four commands every bundled device answers (see docs/device-protocol.md). */
export const STANDARD_COMMANDS = {
  readConfiguration: 'Read configuration',
  writeConfiguration: 'Write configuration',
  readLiveValues: 'Read live values',
  checkPassword: 'Check password',
} as const;
