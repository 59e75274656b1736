// npm run bench:ble — a full configuration read, and a write + read-back + verify, over Chromium's
// emulated Bluetooth adapter (the peripheral answered by the device simulator in this process),
// beside the codec and device-config work the app does for the same steps, measured alone.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { exchange, readConfiguration, targetOf } from '../src/ble/device-commands.ts';
import type { BleLink } from '../src/ble/transport.ts';
import type { BluetoothLike } from '../src/ble/web-bluetooth-types.ts';
import { loadCodec } from '../src/codec/load-node.ts';
import { differingSettings } from '../src/device-config/differing-settings.ts';
import { encodeConfiguration } from '../src/device-config/encode-form.ts';
import { EXCLUDED_GROUPS } from '../src/device-config/excluded-groups.ts';
import { buildForm } from '../src/device-config/form-fields.ts';
import { OPCODE } from '../src/device-protocol/protocol.ts';
import { MemoryConfigStore } from '../src/device-sim/config-store.ts';
import { bundledProducts } from '../tests/device-config/bundled-products.ts';
import { answerChooser, EmulatedPeripheral } from '../tests/e2e/ble-peripheral.ts';
import { BLUETOOTH_ARGS } from '../tests/e2e/browser.ts';
import { findChromium } from '../tests/e2e/find-chromium.ts';

const ROUNDS = 60;
const SERIAL = 'HX5K-24-000123';
const hybrid = bundledProducts().find((p) => p.modelId === 'HX-5000');
if (!hybrid) throw new Error('HX-5000 missing from the bundled catalogue');
const product = hybrid;
const codec = await loadCodec();
const size = product.entry.write.bufferSize;
const target = targetOf(product.entry);

// --- The app's own work for each step, with the device's answers already in hand. ---------------
const store = new MemoryConfigStore();
const peripheralStore = new MemoryConfigStore();
const { SimulatedDevice } = await import('../src/device-sim/simulated-device.ts');
const device = new SimulatedDevice({
  codec,
  entry: product.entry,
  config: product.config,
  serialNumber: SERIAL,
  store,
});
device.connect();
const readFrame = codec.buildFrame(OPCODE.readConfiguration, size);
const readAnswer = device.request(readFrame);
device.request(codec.buildFrame(OPCODE.checkPassword, size, Uint8Array.from(codec.passwordCodes('0000'))));
/** A link that answers at once with a prepared frame: only the app's code runs. */
const cannedLink = (answers: Uint8Array[]): BleLink => {
  let next = 0;
  return {
    id: 'canned',
    name: SERIAL,
    connected: true,
    connect: async () => undefined,
    discover: async () => undefined,
    disconnect: () => undefined,
    write: async () => undefined,
    read: async () => (answers[next++ % answers.length] as Uint8Array).slice(),
    rssi: async () => undefined,
    onLost: () => () => undefined,
  };
};
const { decoded } = await readConfiguration(codec, cannedLink([readAnswer]), product);
const groups = buildForm(product.config, decoded, { excludedGroups: EXCLUDED_GROUPS });
const values = { maxChargeCurrent: 42.5, workMode: 2 };
const encoded = encodeConfiguration(codec, product.config, groups, values, readAnswer, {
  opcode: OPCODE.writeConfiguration,
});
if (!encoded.ok) throw new Error('the benchmark form does not validate');
const writeAnswer = device.request(encoded.frame);
const readBackAnswer = device.request(readFrame);

async function microsPerRun(run: () => Promise<unknown>, rounds = 2000): Promise<number> {
  for (let i = 0; i < 200; i++) await run();
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < 5; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < rounds; i++) await run();
    best = Math.min(best, Number(process.hrtime.bigint() - start) / rounds / 1000);
  }
  return best;
}

const readWork = await microsPerRun(() => readConfiguration(codec, cannedLink([readAnswer]), product));
const writeLink = cannedLink([writeAnswer]);
const readBackLink = cannedLink([readBackAnswer]);
const writeWork = await microsPerRun(async () => {
  const result = encodeConfiguration(codec, product.config, groups, values, readAnswer, {
    opcode: OPCODE.writeConfiguration,
  });
  if (!result.ok) throw new Error('invalid');
  await exchange(codec, writeLink, result.frame);
  const back = await readConfiguration(codec, readBackLink, product);
  if (differingSettings(product.config, result.frame, back.frame).length > 0) throw new Error('differs');
});

// --- The same exchanges over Chromium's emulated adapter. ----------------------------------------
const page404 = createServer((_, response) => {
  response.setHeader('content-type', 'text/html');
  response.end('<!doctype html><title>bench</title>');
});
await new Promise<void>((resolve) => page404.listen(0, '127.0.0.1', resolve));
const browser = await chromium.launch({
  executablePath: findChromium(),
  headless: true,
  args: BLUETOOTH_ARGS,
});
let figures: { name: string; label: string; value: number; unit: string }[] = [];
try {
  const peripheral = await EmulatedPeripheral.start(browser, {
    codec,
    product,
    serialNumber: SERIAL,
    store: peripheralStore,
  });
  const page = await browser.newPage();
  await answerChooser(page);
  // tsx names the functions it compiles with a `__name` helper, which the page does not have.
  await page.addInitScript('window.__name = (fn) => fn;');
  // localhost is a secure context, which Web Bluetooth requires.
  await page.goto(`http://localhost:${(page404.address() as AddressInfo).port}/`);
  const toArray = (frame: Uint8Array) => Array.from(frame);
  const timings = await page.evaluate(
    async ({ service, characteristic, read, password, write, rounds }) => {
      const bluetooth = (navigator as unknown as { bluetooth: BluetoothLike }).bluetooth;
      const device = await bluetooth.requestDevice({ filters: [{ services: [service] }] });
      if (!device.gatt) throw new Error('no GATT server');
      await device.gatt.connect();
      const c = await (await device.gatt.getPrimaryService(service)).getCharacteristic(characteristic);
      const exchange = async (frame: number[]) => {
        const bytes = Uint8Array.from(frame);
        await (c.writeValueWithResponse ? c.writeValueWithResponse(bytes) : c.writeValue(bytes));
        return c.readValue();
      };
      await exchange(password);
      const best = async (run: () => Promise<unknown>) => {
        for (let i = 0; i < 5; i++) await run();
        const times: number[] = [];
        for (let i = 0; i < rounds; i++) {
          const start = performance.now();
          await run();
          times.push(performance.now() - start);
        }
        times.sort((a, b) => a - b);
        return { median: times[Math.floor(times.length / 2)] as number, best: times[0] as number };
      };
      return {
        read: await best(() => exchange(read)),
        write: await best(async () => {
          await exchange(write);
          await exchange(read);
        }),
      };
    },
    {
      service: target.service,
      characteristic: target.characteristic,
      read: toArray(readFrame),
      password: toArray(
        codec.buildFrame(OPCODE.checkPassword, size, Uint8Array.from(codec.passwordCodes('0000'))),
      ),
      write: toArray(encoded.frame),
      rounds: ROUNDS,
    },
  );
  await peripheral.stop();
  const readTotal = timings.read.median + readWork / 1000;
  const writeTotal = timings.write.median + writeWork / 1000;
  figures = [
    {
      name: 'ble.read.exchange',
      label: 'Full read, emulated adapter (median)',
      value: timings.read.median,
      unit: 'ms',
    },
    { name: 'ble.read.app', label: 'Full read, codec + decode alone', value: readWork, unit: 'µs' },
    {
      name: 'ble.read.share',
      label: 'Full read, the app’s share',
      value: (100 * readWork) / 1000 / readTotal,
      unit: '%',
    },
    {
      name: 'ble.write.exchange',
      label: 'Write + read-back, emulated adapter (median)',
      value: timings.write.median,
      unit: 'ms',
    },
    {
      name: 'ble.write.app',
      label: 'Write: encode + verify + decode + compare alone',
      value: writeWork,
      unit: 'µs',
    },
    {
      name: 'ble.write.share',
      label: 'Write + read-back + verify, the app’s share',
      value: (100 * writeWork) / 1000 / writeTotal,
      unit: '%',
    },
  ];
} finally {
  await browser.close();
  page404.close();
}

for (const f of figures)
  console.log(`${f.label.padEnd(50)} ${f.value.toFixed(f.unit === '%' ? 2 : 1).padStart(9)} ${f.unit}`);
for (const f of figures)
  console.log(JSON.stringify({ name: f.name, value: Number(f.value.toFixed(3)), unit: f.unit }));
