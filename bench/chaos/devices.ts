// The simulated devices of a fault run, in a process of their own (started by
// bench/telemetry-chaos.ts over IPC): each takes a reading every interval, keeps it until it is
// acknowledged, and notes when it took it and when the ack came. Told to finish, they take no
// more readings, wait until everything kept is acknowledged (or the time is up), and the process
// writes what was produced to a file: per device, each reading's device time, when it was taken
// and when it was acknowledged.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ProductCatalogue } from '../../server/monitoring/telemetry/product-catalogue.ts';
import { loadCodec } from '../../src/codec/load-node.ts';
import { bundledFleet } from '../../src/device-sim/online/bundled-fleet.ts';
import { SocketDevice } from '../../src/device-sim/online/socket-device.ts';
import { benchSerial } from '../telemetry-seed.ts';

/** One produced reading: device time (s), taken at (epoch ms), acknowledged at (epoch ms, 0: never). */
export type ProducedReading = [number, number, number];

/** What the process writes: per device (by bench serial index), its readings in the order taken. */
export interface ProducedFile {
  devices: { index: number; readings: ProducedReading[] }[];
  messagesSent: number;
  backlogDropped: number;
}

/** Messages between the run and this process. */
export type ToDevices = { type: 'finish'; waitMs: number };
export type FromDevices = { type: 'online'; count: number } | { type: 'done'; kept: number };

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    count: { type: 'string' },
    secret: { type: 'string' },
    out: { type: 'string' },
    binary: { type: 'boolean' },
    interval: { type: 'string', default: '10' },
  },
});
const send = (message: FromDevices) => process.send?.(message);

async function main(): Promise<void> {
  const count = Number(values.count);
  const intervalMs = Number(values.interval) * 1000;
  const codec = await loadCodec();
  const catalogue = new ProductCatalogue(codec, 'public');
  await catalogue.load();
  const product = catalogue.product('HX-5000');
  const timeItem = product?.config.rawData.find((item) => item.name === product.spec?.timeItem);
  if (!timeItem) throw new Error('the HX-5000 has no reading time in the catalogue');
  const fleet = await bundledFleet();
  const produced: ProducedReading[][] = Array.from({ length: count }, () => []);
  /** Where each kept reading sits in `produced`, by device and seq. */
  const bySeq = Array.from({ length: count }, () => new Map<number, ProducedReading>());
  let welcomed = 0;
  const devices = Array.from({ length: count }, (_, i) => {
    const serial = benchSerial(i);
    const device = new SocketDevice({
      url: values.url ?? '',
      serialNumber: serial,
      modelId: 'HX-5000',
      secret: values.secret ?? '',
      device: fleet.device(serial),
      firstTelemetryMs: Math.random() * intervalMs,
      // Behind the run's balancer each device stands for an address of its own.
      headers: { 'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` },
      ...(values.binary ? { binary: true } : {}),
      log: () => {},
      onReading: (reading) => {
        const deviceTime = codec.readField(codec.dataView(reading.frame), timeItem.buffer);
        const entry: ProducedReading = [deviceTime, reading.takenAt, 0];
        produced[i]?.push(entry);
        bySeq[i]?.set(reading.seq, entry);
      },
      onAcknowledged: (readings, at) => {
        for (const reading of readings) {
          const entry = bySeq[i]?.get(reading.seq);
          if (entry) entry[2] = at;
          bySeq[i]?.delete(reading.seq);
        }
      },
    });
    void device.online().then(() => {
      welcomed += 1;
      if (welcomed === count) send({ type: 'online', count });
    });
    return device;
  });
  for (const device of devices) device.start();

  process.on('message', (message: ToDevices) => {
    if (message.type !== 'finish') return;
    for (const device of devices) device.stopReadings();
    const deadline = Date.now() + message.waitMs;
    const look = () => {
      const kept = devices.reduce((n, device) => n + device.kept, 0);
      if (kept > 0 && Date.now() < deadline) {
        setTimeout(look, 500);
        return;
      }
      void Promise.all(devices.map((device) => device.stop())).then(() => {
        const file: ProducedFile = {
          devices: produced.map((readings, index) => ({ index, readings })),
          messagesSent: devices.reduce((n, device) => n + device.messagesSent, 0),
          backlogDropped: devices.reduce((n, device) => n + device.backlogDropped, 0),
        };
        writeFileSync(values.out ?? 'produced.json', JSON.stringify(file));
        const done: FromDevices = { type: 'done', kept };
        process.send?.(done, () => process.exit(0));
      });
    };
    look();
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
