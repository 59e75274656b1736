import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DEMO_FIRMWARE, firmwareVersionSchema } from '../../../contracts/firmware.ts';
import {
  SIMULATED_DEVICES_FILE,
  type SimulatedPlace,
  simulatedDevicesFileSchema,
} from '../../../contracts/service-comms.ts';
import { bundledFleet } from './bundled-fleet.ts';
import { sampledLiveValues } from './sampled-live-values.ts';
import { smpSide, trustedKeysFromEnvironment } from './smp-side.ts';
import { DEFAULT_TELEMETRY_INTERVAL_S, pastReadings, SocketDevice } from './socket-device.ts';

const USAGE = `Usage: npm run simulate -- --serial <serial> --model <model id> [--url <ws url>] [--secret <secret>]
       npm run simulate -- --file data/${SIMULATED_DEVICES_FILE} [--url <ws url>]
       npm run simulate -- --count <n> (--file <file> | --serial <first serial> --model <id> --secret <secret>)
       options: --quiet (no line per device), --binary (telemetry as binary messages),
                --firmware <x.y.z> (the firmware version the devices run; default ${DEMO_FIRMWARE.running}),
                --fail-health (a new firmware image does not come up: the watchdog restarts the device,
                which goes back to its old image and connects again with the old version),
                --kept-minutes <m> (start as after a link down for m minutes: the readings of those
                minutes are kept, and sent first),
                --stats (print {"readingsTaken", "messagesSent", "acknowledged", "kept", "backlogDropped",
                "offlineAtStop", "disconnects"} as JSON when stopped; disconnects: how often devices'
                sockets closed unasked, by close code and reason),
                --spread-addresses (each device says X-Forwarded-For 10.x.y.z, as many devices behind a
                load balancer do; the service reads it only with TRUST_PROXY),
                --sample-every <s> (sample the live values once per s seconds and send that sample
                again, at each reading's own time, in between: a load test of thousands of devices a
                second; default 0, a real sample every reading)

Runs simulated devices that connect to the configuration service's device socket, answer
commands as the device answers over Bluetooth, and send their live values as telemetry every
interval the service asks for (TELEMETRY_INTERVAL_S when it does not say; default 10 s). The secret
comes from --secret, DEVICE_SECRET, or the demo's data/${SIMULATED_DEVICES_FILE}; an admin issues
one with POST /config/service-comms/devices/{serial}/secret.
--count runs n devices in one process: the first n of --file, or n serial numbers counting up
from --serial that share one secret (a load test's devices, registered with that secret).
Firmware updates come over the socket (SMP): the devices accept images signed with a key of
FIRMWARE_PUBLIC_KEYS, else the development key in DATA_DIR (default data).`;

interface Wanted {
  serialNumber: string;
  modelId: string;
  secret: string;
  /** Where it is installed (from the demo file); left out, at its clock's longitude. */
  place?: SimulatedPlace | undefined;
}

/** The devices' unasked disconnects added up by cause, most frequent first. */
function disconnectsOf(devices: readonly SocketDevice[]): Record<string, number> {
  const total = new Map<string, number>();
  for (const device of devices)
    for (const [cause, n] of device.disconnects) total.set(cause, (total.get(cause) ?? 0) + n);
  return Object.fromEntries([...total].sort((a, b) => b[1] - a[1]));
}

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

function readDemoFile(path: string): Wanted[] {
  try {
    return simulatedDevicesFileSchema.parse(JSON.parse(readFileSync(path, 'utf8'))).devices;
  } catch (error) {
    return fail(`Cannot read ${path}: ${(error as Error).message}`);
  }
}

/** `count` serial numbers from `first` on: HX5K-26-000100, HX5K-26-000101, … */
function serialsFrom(first: string, count: number): string[] {
  const match = /^(.*-)(\d{6})$/.exec(first);
  if (!match) return fail(`${first} does not end in six digits.`);
  const [, prefix = '', digits = '0'] = match;
  if (Number(digits) + count > 1_000_000) return fail(`Fewer than ${count} serial numbers follow ${first}.`);
  return Array.from({ length: count }, (_, i) => `${prefix}${String(Number(digits) + i).padStart(6, '0')}`);
}

function readCount(values: Record<string, string | boolean | undefined>): number | undefined {
  if (values.count === undefined) return undefined;
  const count = Number(values.count);
  if (!Number.isInteger(count) || count < 1 || count > 100_000) return fail('--count must be 1 to 100000.');
  return count;
}

function wantedDevices(values: Record<string, string | boolean | undefined>): Wanted[] {
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  const count = readCount(values);
  const file = text('file');
  if (file) {
    const listed = readDemoFile(file);
    if (count !== undefined && count > listed.length)
      return fail(`${file} lists ${listed.length} devices, fewer than --count ${count}.`);
    return listed.slice(0, count);
  }
  const serialNumber = text('serial');
  const modelId = text('model');
  if (!serialNumber || !modelId) return fail('Give --serial and --model, or --file.');
  if (count !== undefined) {
    const secret = text('secret') ?? process.env.DEVICE_SECRET;
    if (!secret) return fail('--count with --serial needs --secret (or DEVICE_SECRET).');
    return serialsFrom(serialNumber, count).map((serial) => ({ serialNumber: serial, modelId, secret }));
  }
  const demoFile = `data/${SIMULATED_DEVICES_FILE}`;
  const secret =
    text('secret') ??
    process.env.DEVICE_SECRET ??
    (existsSync(demoFile)
      ? readDemoFile(demoFile).find((d) => d.serialNumber === serialNumber)?.secret
      : undefined);
  if (!secret) return fail(`No secret for ${serialNumber}: pass --secret or set DEVICE_SECRET.`);
  return [{ serialNumber, modelId, secret }];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      serial: { type: 'string' },
      model: { type: 'string' },
      secret: { type: 'string' },
      file: { type: 'string' },
      url: {
        type: 'string',
        default: `ws://localhost:${process.env.PORT ?? 8080}/config/service-comms/devices/ws`,
      },
      count: { type: 'string' },
      quiet: { type: 'boolean' },
      stats: { type: 'boolean' },
      binary: { type: 'boolean' },
      'kept-minutes': { type: 'string' },
      firmware: { type: 'string', default: DEMO_FIRMWARE.running },
      'fail-health': { type: 'boolean' },
      'spread-addresses': { type: 'boolean' },
      'sample-every': { type: 'string' },
      help: { type: 'boolean' },
      'with-parent': { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const wanted = wantedDevices(values);
  const firmware = firmwareVersionSchema.safeParse(values.firmware);
  if (!firmware.success)
    fail(`--firmware ${values.firmware}: ${firmware.error.issues[0]?.message ?? 'invalid'}.`);
  const keptMinutes = values['kept-minutes'] === undefined ? 0 : Number(values['kept-minutes']);
  if (!Number.isFinite(keptMinutes) || keptMinutes < 0 || keptMinutes > 1440)
    fail('--kept-minutes must be 0 to 1440 (a day).');
  // One clock for the devices: set back to take the readings of the minutes the link was down,
  // then the real one (so energy counters go on from where they were).
  let clock: number | undefined;
  const fleet = await bundledFleet('public', () => clock ?? Date.now());
  const interval = Number(process.env.TELEMETRY_INTERVAL_S) || DEFAULT_TELEMETRY_INTERVAL_S;
  const keptFrom = Date.now() - keptMinutes * 60_000;
  const keptOf = (serialNumber: string) => {
    if (keptMinutes === 0) return [];
    clock = keptFrom;
    const device = fleet.device(serialNumber);
    const kept = pastReadings(
      (t) => {
        clock = t;
        return device.liveValuesFrame();
      },
      keptFrom,
      Date.now(),
      interval,
    );
    clock = undefined;
    return kept;
  };
  const sampleEveryS = values['sample-every'] === undefined ? 0 : Number(values['sample-every']);
  if (!Number.isFinite(sampleEveryS) || sampleEveryS < 0) fail('--sample-every must be 0 or more seconds.');
  // Many devices start together: each sends its first telemetry at a random moment of the interval.
  const spread = wanted.length > 10;
  const quiet = values.quiet === true || spread;
  const address = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
  const keys = trustedKeysFromEnvironment();
  if (keys.length === 0)
    console.warn('No trusted firmware key (FIRMWARE_PUBLIC_KEYS or DATA_DIR): every image will be refused.');
  const sides = await Promise.all(
    wanted.map(({ modelId }) =>
      smpSide({ modelId, version: firmware.data ?? '', keys, healthy: values['fail-health'] !== true }),
    ),
  );
  const devices = wanted.map(({ serialNumber, modelId, secret, place }, i) => {
    const model = fleet.model(serialNumber);
    if (!model) fail(`No model in the devices lists has the prefix of ${serialNumber}.`);
    if (model.modelId !== modelId) fail(`${serialNumber} is a ${model.modelId}, not a ${modelId}.`);
    const kept = keptOf(serialNumber);
    return new SocketDevice({
      url: values.url as string,
      serialNumber,
      modelId,
      secret,
      device: sampledLiveValues(fleet.device(serialNumber, place), sampleEveryS * 1000),
      smp: sides[i],
      kept,
      ...(spread ? { firstTelemetryMs: Math.random() * interval * 1000 } : {}),
      ...(quiet ? { log: () => {} } : {}),
      ...(values.binary ? { binary: true } : {}),
      ...(values['spread-addresses'] ? { headers: { 'x-forwarded-for': address(i + 1) } } : {}),
    });
  });
  for (const device of devices) device.start();
  if (quiet) console.log(`${devices.length} simulated devices started`);
  const stop = async () => {
    // Going offline: no more readings; what is kept goes out first, while the service is there
    // (for at most 30 s).
    for (const device of devices) device.stopReadings();
    const deadline = Date.now() + 30_000;
    while (devices.some((device) => device.kept > 0 && device.isOnline) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));
    const offlineAtStop = devices.filter((device) => !device.isOnline).length;
    await Promise.all(devices.map((device) => device.stop())).then(() => {
      if (values.stats) {
        const sum = (count: (device: SocketDevice) => number) =>
          devices.reduce((total, device) => total + count(device), 0);
        console.log(
          JSON.stringify({
            readingsTaken: sum((d) => d.readingsTaken),
            messagesSent: sum((d) => d.messagesSent),
            acknowledged: sum((d) => d.acknowledged),
            kept: sum((d) => d.kept),
            backlogDropped: sum((d) => d.backlogDropped),
            offlineAtStop,
            disconnects: disconnectsOf(devices),
          }),
        );
      }
      process.exit(0);
    });
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  // Started by the server: when the server is gone (even killed), so are its simulated devices.
  if (values['with-parent']) {
    process.stdin.once('close', () => void stop());
    process.stdin.resume();
  }
}

main().catch((error: unknown) => {
  console.error((error as Error).message);
  process.exit(1);
});
