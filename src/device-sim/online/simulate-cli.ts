import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { SIMULATED_DEVICES_FILE, simulatedDevicesFileSchema } from '../../../contracts/service-comms.ts';
import { bundledFleet } from './bundled-fleet.ts';
import { SocketDevice } from './socket-device.ts';

const USAGE = `Usage: npm run simulate -- --serial <serial> --model <model id> [--url <ws url>] [--secret <secret>]
       npm run simulate -- --file data/${SIMULATED_DEVICES_FILE} [--url <ws url>]

Runs simulated devices that connect to the configuration service's device socket and answer
commands as the device answers over Bluetooth. The secret comes from --secret, DEVICE_SECRET, or
the demo's data/${SIMULATED_DEVICES_FILE}; an admin issues one with
POST /config/service-comms/devices/{serial}/secret.`;

interface Wanted {
  serialNumber: string;
  modelId: string;
  secret: string;
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

function wantedDevices(values: Record<string, string | boolean | undefined>): Wanted[] {
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  const file = text('file');
  if (file) return readDemoFile(file);
  const serialNumber = text('serial');
  const modelId = text('model');
  if (!serialNumber || !modelId) return fail('Give --serial and --model, or --file.');
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
      help: { type: 'boolean' },
      'with-parent': { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const wanted = wantedDevices(values);
  const fleet = await bundledFleet();
  const devices = wanted.map(({ serialNumber, modelId, secret }) => {
    const model = fleet.model(serialNumber);
    if (!model) fail(`No model in the devices lists has the prefix of ${serialNumber}.`);
    if (model.modelId !== modelId) fail(`${serialNumber} is a ${model.modelId}, not a ${modelId}.`);
    return new SocketDevice({
      url: values.url as string,
      serialNumber,
      modelId,
      secret,
      device: fleet.device(serialNumber),
    });
  });
  for (const device of devices) device.start();
  const stop = () => {
    Promise.all(devices.map((device) => device.stop())).then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // Started by the server: when the server is gone (even killed), so are its simulated devices.
  if (values['with-parent']) {
    process.stdin.once('close', stop);
    process.stdin.resume();
  }
}

main().catch((error: unknown) => {
  console.error((error as Error).message);
  process.exit(1);
});
