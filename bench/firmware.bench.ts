// npm run bench:firmware — firmware updates, both ways, on this machine:
// 1. Bluetooth: an image uploaded through the app's update machine and its actors
//    (machines/firmware/) over the simulated SMP link (src/ble/simulated-smp-transport.ts, the demo
//    device's radio pace), beside the same link's raw write rate measured in the same run (messages
//    of the upload's chunk size written one after the other, with no SMP and no answer); and the
//    same upload with no radio pace at all: what the app's path itself costs.
// 2. A rollout to 1,000 simulated devices online over their sockets (SMP, MCUboot's two slots),
//    on the real server with PGlite, from the call that starts it to `done`.
// Both run in this one Node process (the server, PGlite and the devices share its event loop).
//   npm run bench:firmware -- --image-kb 128 --link-bps 16384 --devices 1000 --wave 100
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { createActor, fromCallback, waitFor } from 'xstate';
import type { Rollout } from '../contracts/firmware.ts';
import { createBleUpdateActors } from '../machines/firmware/ble-update-actors.ts';
import { bleUpdateMachine } from '../machines/firmware/ble-update-machine.ts';
import { parseVersion, signImage } from '../server/firmware/sign-image.ts';
import { SimulatedSmpLink, SimulatedSmpTransport } from '../src/ble/simulated-smp-transport.ts';
import { loadFirmwareCodec } from '../src/codec/load-node.ts';
import { smpSide } from '../src/device-sim/online/smp-side.ts';
import { SIM_BUF_SIZE, type SmpDevice } from '../src/device-sim/smp-device.ts';
import { chunkDataSize } from '../src/smp/smp-client.ts';
import { startTestServer } from '../tests/server/harness.ts';
import { FLEET_MODEL, fleetOnline, seedFleet, uploadFleetImage } from '../tests/server/rollout-fleet.ts';

const { values: args } = parseArgs({
  options: {
    /** The Bluetooth upload's image payload, in KiB. */
    'image-kb': { type: 'string', default: '128' },
    /** The simulated radio's pace, bytes per second (the app's demo device: 16 KiB/s). */
    'link-bps': { type: 'string', default: String(16 * 1024) },
    devices: { type: 'string', default: '1000' },
    canary: { type: 'string', default: '10' },
    wave: { type: 'string', default: '100' },
    /** The rollout's image payload, in KiB. */
    'rollout-image-kb': { type: 'string', default: '64' },
    /** How long a simulated device takes to start again after its reset, ms. */
    'restart-ms': { type: 'string', default: '200' },
  },
});
const IMAGE_BYTES = Number(args['image-kb']) * 1024;
const LINK_BPS = Number(args['link-bps']);
const DEVICES = Number(args.devices);
const CANARY = Number(args.canary);
const WAVE = Number(args.wave);
const ROLLOUT_IMAGE_BYTES = Number(args['rollout-image-kb']) * 1024;
const RESTART_MS = Number(args['restart-ms']);

const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const key = generateKeyPairSync('ed25519').privateKey;
const SERIAL = 'HX5K-24-000123';
const figures: { name: string; label: string; value: number; unit: string }[] = [];
const figure = (name: string, label: string, value: number, unit: string) => {
  figures.push({ name, label, value, unit });
  log(`${label}: ${value.toFixed(1)} ${unit}`);
};

const trusted = new Uint8Array(createPublicKey(key).export({ type: 'spki', format: 'der' }));
const device = () => smpSide({ modelId: FLEET_MODEL, version: '1.0.0', keys: [trusted] });
const firmware = await loadFirmwareCodec();

// --- 1. Bluetooth ----------------------------------------------------------------------------------

const image = new Uint8Array(
  signImage({
    key,
    modelId: FLEET_MODEL,
    version: parseVersion('2.0.0'),
    payload: Buffer.alloc(IMAGE_BYTES, 0xa5),
  }),
);

/** Bytes per second the link carries: `count` messages of `size` bytes, each once the one before arrived. */
async function rawWriteRate(size: number, count: number): Promise<number> {
  let arrived: (() => void) | undefined;
  const sink = {
    handle: async () => {
      arrived?.();
      return null;
    },
  } as unknown as SmpDevice;
  const link = new SimulatedSmpLink({ serialNumber: SERIAL, device: sink, bytesPerSecond: LINK_BPS });
  await link.connect();
  const message = new Uint8Array(size);
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const done = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    await link.send(message);
    await done;
  }
  return (size * count * 1000) / (performance.now() - started);
}

/** One update through the app's machine: the upload's rate (image bytes over the time in `uploading`) and the whole update's time. */
async function machineUpdate(bytesPerSecond: number): Promise<{ uploadRate: number; totalMs: number }> {
  const smp = await device();
  const link = new SimulatedSmpLink({ serialNumber: SERIAL, device: smp, bytesPerSecond, restartMs: 0 });
  const logic = bleUpdateMachine.provide({
    actors: {
      ...createBleUpdateActors({
        firmware,
        modelId: FLEET_MODEL,
        download: async () => image,
        reconnect: { attempts: 20, waitMs: 10 },
      }),
      keepAwake: fromCallback(() => () => {}),
    },
  });
  const actor = createActor(logic, {
    input: { serial: SERIAL, namePrefix: 'HX5K', offer: { id: 1, version: '2.0.0' } },
  });
  const marks = new Map<string, number>();
  actor.subscribe((snapshot) => {
    const state = String(snapshot.value);
    if (!marks.has(state)) marks.set(state, performance.now());
  });
  actor.start();
  const started = performance.now();
  actor.send({ type: 'update.start', transport: new SimulatedSmpTransport(link) });
  const end = await waitFor(
    actor,
    (s) => ['done', 'failed', 'refused', 'reverted', 'notBack', 'unconfirmed'].includes(String(s.value)),
    {
      timeout: 600_000,
    },
  );
  actor.stop();
  if (end.value !== 'done')
    throw new Error(`the update ended ${String(end.value)}: ${JSON.stringify(end.context.problem)}`);
  if (smp.runningVersion !== '2.0.0') throw new Error(`the device runs ${smp.runningVersion}`);
  const uploading = marks.get('uploading') ?? 0;
  const testing = marks.get('testing') ?? 0;
  return { uploadRate: (image.length * 1000) / (testing - uploading), totalMs: performance.now() - started };
}

log(`Bluetooth: a ${(image.length / 1024).toFixed(0)} KiB image over the simulated link at ${LINK_BPS} B/s`);
// The simulated device's SMP buffer: the upload's messages fill it.
const messageBytes = SIM_BUF_SIZE;
const data = chunkDataSize(SIM_BUF_SIZE, { off: image.length });
const raw = await rawWriteRate(messageBytes, Math.max(20, Math.ceil(image.length / data)));
const paced = await machineUpdate(LINK_BPS);
const unpaced = await machineUpdate(0);
figure(
  'ble.link.raw',
  `Simulated link, raw writes of ${messageBytes} B (no SMP, no answer)`,
  raw / 1024,
  'KiB/s',
);
figure(
  'ble.upload.rate',
  `SMP upload through the update machine, chunks of ${data} B`,
  paced.uploadRate / 1024,
  'KiB/s',
);
figure(
  'ble.upload.share',
  'Upload rate as a share of the raw write rate',
  (100 * paced.uploadRate) / raw,
  '%',
);
figure(
  'ble.update.total',
  'Whole update (prepare, upload, test, reset, check, confirm)',
  paced.totalMs / 1000,
  's',
);
figure(
  'ble.upload.unpaced',
  'SMP upload through the update machine, no radio pace',
  unpaced.uploadRate / 1024,
  'KiB/s',
);

// --- 2. A 1,000-device rollout -----------------------------------------------------------------------

log(
  `Rollout: ${DEVICES} devices, canary ${CANARY}, waves of ${WAVE}, a ${ROLLOUT_IMAGE_BYTES / 1024} KiB image`,
);
const SECRET = 'bench-firmware-fleet-secret';
const server = await startTestServer({ TELEMETRY_INTERVAL_S: '3600' }, { firmwareKey: key });
let fleet: Awaited<ReturnType<typeof fleetOnline>> | undefined;
try {
  const admin = (await server.login('admin')).access_token;
  const serials = await seedFleet(server.server.ctx.db, { count: DEVICES, first: 500_000, secret: SECRET });
  const connecting = performance.now();
  fleet = await fleetOnline(server, serials, {
    secret: SECRET,
    version: '1.0.0',
    key,
    restartMs: RESTART_MS,
    parallel: 50,
  });
  log(`${DEVICES} devices online in ${((performance.now() - connecting) / 1000).toFixed(1)} s`);
  const firmwareId = await uploadFleetImage(server, admin, {
    key,
    version: '3.0.0',
    payloadBytes: ROLLOUT_IMAGE_BYTES,
  });
  const started = performance.now();
  const created = await server.call('POST', '/config/fleet/firmware-rollouts', {
    token: admin,
    body: { firmwareId, canary: CANARY, waveSize: WAVE, maxFailures: 0, serials },
  });
  if (created.status !== 201) throw new Error(`rollout: ${created.status} ${JSON.stringify(created.body)}`);
  const { id } = created.body as { id: number };
  let rollout: Rollout;
  let canaryMs = 0;
  for (;;) {
    rollout = (await server.call('GET', `/config/fleet/firmware-rollouts/${id}`, { token: admin }))
      .body as Rollout;
    const confirmed = rollout.devices.filter((d) => d.state === 'confirmed').length;
    if (!canaryMs && confirmed >= CANARY) canaryMs = performance.now() - started;
    if (rollout.state !== 'running') break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const ms = performance.now() - started;
  const confirmed = rollout.devices.filter((d) => d.state === 'confirmed').length;
  if (rollout.state !== 'done' || confirmed !== DEVICES)
    throw new Error(`the rollout ended ${rollout.state} with ${confirmed} of ${DEVICES} confirmed`);
  const runs = serials.filter((serial) => fleet?.sides.get(serial)?.runningVersion === '3.0.0').length;
  if (runs !== DEVICES) throw new Error(`${runs} of ${DEVICES} devices run the new image`);
  figure('rollout.total', `Rollout to ${DEVICES} devices, start to done`, ms / 1000, 's');
  figure('rollout.canary', `…its canary of ${CANARY} confirmed after`, canaryMs / 1000, 's');
  figure('rollout.rate', '…devices confirmed per minute', (DEVICES * 60_000) / ms, '/min');
} finally {
  await fleet?.stop();
  await server.close();
}

console.log(
  `\n${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}, Node ${process.version}, ${new Date().toISOString().slice(0, 16)} UTC`,
);
for (const f of figures)
  console.log(`${f.label.padEnd(72)} ${f.value.toFixed(f.unit === '%' ? 1 : 1).padStart(9)} ${f.unit}`);
for (const f of figures)
  console.log(JSON.stringify({ name: f.name, value: Number(f.value.toFixed(3)), unit: f.unit }));
