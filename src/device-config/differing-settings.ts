import type { DeviceConfig } from './config-schema.ts';

/**
 * The settings (rawData items that are not live values) whose bytes differ between two frames:
 * what a read-back must match, byte for byte, for a write to count as done.
 * @example differingSettings(config, writtenFrame, readBackFrame) // [] when the device holds exactly what was written
 */
export function differingSettings(config: DeviceConfig, a: Uint8Array, b: Uint8Array): string[] {
  return config.rawData
    .filter((item) => !item.readOnly)
    .filter((item) => {
      const start = item.buffer.position;
      for (let i = start; i < start + item.buffer.length / 8; i += 1) if (a[i] !== b[i]) return true;
      return false;
    })
    .map((item) => item.name);
}
