import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import { demoSite } from '../../server/db/seed-places.ts';
import { parseVersion, signImage } from '../../server/firmware/sign-image.ts';
import { smpSide } from '../../src/device-sim/online/smp-side.ts';
import type { SocketDevice } from '../../src/device-sim/online/socket-device.ts';
import type { SmpDevice } from '../../src/device-sim/smp-device.ts';
import type { TestServer } from './harness.ts';
import { connectDevice } from './service-comms-devices.ts';

/**
 * A fleet of simulated devices for firmware rollouts at scale (the 50-device test, `npm run
 * bench:firmware`): devices of one model on a site of their own, all with one secret, online over
 * the device socket with their SMP side (MCUboot's two slots).
 */
export const FLEET_MODEL = 'HX-5000';

/** The fleet's serial numbers: `HX5K-26-<first + i>`. */
export const fleetSerial = (first: number, i: number) => `HX5K-26-${String(first + i).padStart(6, '0')}`;

/**
 * `count` devices of {@link FLEET_MODEL} on a new site of the seeded installer A (serials from
 * `first`), each with the secret `secret` (stored as its SHA-256, as for any device). Answers the
 * serials in order.
 */
export async function seedFleet(
  db: Kysely<Database>,
  options: { count: number; first: number; secret: string },
): Promise<string[]> {
  const installerId = 2;
  const site = await db
    .insertInto('sites')
    .values({ ...demoSite(0, () => 0.5), name: `Rollout fleet ${options.first}`, installer_id: installerId })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('site_access')
    .values({ site_id: site.id, user_id: installerId, roles: ['installer', 'configurator'], access: true })
    .execute();
  const serials = Array.from({ length: options.count }, (_, i) => fleetSerial(options.first, i));
  const hash = createHash('sha256').update(options.secret).digest('hex');
  for (let i = 0; i < serials.length; i += 500) {
    const ids = await db
      .insertInto('devices')
      .values(
        serials
          .slice(i, i + 500)
          .map((serial) => ({ model_id: FLEET_MODEL, serial, name: 'Fleet inverter', site_id: site.id })),
      )
      .returning('id')
      .execute();
    await db
      .insertInto('device_secrets')
      .values(ids.map(({ id }) => ({ device_id: id, secret_hash: hash })))
      .execute();
  }
  return serials;
}

/** The devices online, each with its SMP side running `version`; `unhealthy` ones cannot run a new image. */
export async function fleetOnline(
  server: TestServer,
  serials: readonly string[],
  options: {
    secret: string;
    version: string;
    key: KeyObject;
    unhealthy?: readonly string[];
    /** How long a device takes to start again after a reset (ms). */
    restartMs?: number;
    /** Devices connecting at once. */
    parallel?: number;
  },
): Promise<{ sides: Map<string, SmpDevice>; devices: SocketDevice[]; stop: () => Promise<void> }> {
  const keys = [new Uint8Array(createPublicKey(options.key).export({ type: 'spki', format: 'der' }))];
  const sides = new Map<string, SmpDevice>();
  const devices: SocketDevice[] = [];
  const parallel = options.parallel ?? 25;
  for (let i = 0; i < serials.length; i += parallel)
    await Promise.all(
      serials.slice(i, i + parallel).map(async (serial, k) => {
        const smp = await smpSide({
          modelId: FLEET_MODEL,
          version: options.version,
          keys,
          healthy: !options.unhealthy?.includes(serial),
        });
        sides.set(serial, smp);
        devices.push(
          await connectDevice(server.origin, {
            serialNumber: serial,
            modelId: FLEET_MODEL,
            secret: options.secret,
            smp,
            restartMs: options.restartMs ?? 20,
            // An address of its own: the service takes 60 hellos a minute from one address.
            headers: { 'x-forwarded-for': `10.77.${(i + k) >> 8}.${(i + k) & 255}` },
          }),
        );
      }),
    );
  return { sides, devices, stop: () => Promise.all(devices.map((d) => d.stop())).then(() => {}) };
}

/** A signed image of `modelId` ({@link FLEET_MODEL} unless given), uploaded over HTTP by `token`: its id. */
export async function uploadFleetImage(
  server: TestServer,
  token: string,
  options: { key: KeyObject; version: string; payloadBytes: number; fill?: number; modelId?: string },
): Promise<number> {
  const modelId = options.modelId ?? FLEET_MODEL;
  const image = signImage({
    key: options.key,
    modelId,
    version: parseVersion(options.version),
    payload: Buffer.alloc(options.payloadBytes, options.fill ?? 0x5a),
  });
  const response = await fetch(`${server.origin}/config/fleet/firmware?model=${modelId}&channel=stable`, {
    method: 'POST',
    headers: {
      'api-key': server.server.ctx.env.API_KEY,
      authorization: `Bearer ${token}`,
      'content-type': 'application/octet-stream',
    },
    body: new Uint8Array(image),
  });
  if (response.status !== 201) throw new Error(`image upload: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: number }).id;
}
