import { readFileSync } from 'node:fs';
import { catalogueSchema, type DeviceEntry } from '../../contracts/catalogue.ts';
import type { DeviceConfig } from '../../src/device-config/config-schema.ts';
import { requireDeviceConfig } from '../../src/device-config/load-config.ts';

/** Reads a file of public/ as JSON. */
export function readPublic(file: string): unknown {
  return JSON.parse(readFileSync(new URL(`../../public/${file}`, import.meta.url), 'utf8'));
}

export interface BundledProduct {
  modelId: string;
  entry: DeviceEntry;
  file: string;
  config: DeviceConfig;
}

/** Every product of both bundled catalogue files, with its loaded configuration. */
export function bundledProducts(): BundledProduct[] {
  const convert = readPublic('convert-list.json') as Record<string, string>;
  return ['devices-list.json', 'devices-list-e1.json'].flatMap((listFile) => {
    const list = catalogueSchema.parse(readPublic(listFile));
    return Object.entries(list.devicesList).map(([modelId, entry]) => {
      const file = convert[entry.productKey] ?? `${entry.productKey}-to-form.json`;
      return {
        modelId,
        entry,
        file,
        config: requireDeviceConfig(file, readPublic(file), entry.write.bufferSize),
      };
    });
  });
}

/** A valid configuration to break in tests. */
export function sampleConfig(): Record<string, unknown> {
  return {
    rawData: [
      {
        name: 'battVoltage',
        value: 512,
        buffer: { position: 1, length: 16, signed: false, littleEndian: true },
        multiplier: 0.1,
      },
      {
        name: 'mode',
        value: 1,
        buffer: { position: 3, length: 8, signed: false, littleEndian: true },
        multiplier: 1,
      },
    ],
    otherData: [{ name: 'modeText', processData: [{ type: 'vfa', ref: 'mode', list: ['Off', 'On'] }] }],
    formData: [{ title: 'Battery', dataObjs: [{ dataId: 'battVoltage', active: true, min: 40, max: 60 }] }],
    layout: { rows: [{ cols: [{ refData: 'battVoltage', round: 1, append: ' V' }] }] },
  };
}
