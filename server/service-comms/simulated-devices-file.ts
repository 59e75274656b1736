import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SIMULATED_DEVICES_FILE, type SimulatedDevicesFile } from '../../contracts/service-comms.ts';
import type { DemoDeviceSecret } from './device-secrets.ts';

/** Where the demo's simulated devices and their secrets are written. */
export function simulatedDevicesPath(dataDir: string): string {
  return join(dataDir, SIMULATED_DEVICES_FILE);
}

export function hasSimulatedDevices(dataDir: string): boolean {
  return existsSync(simulatedDevicesPath(dataDir));
}

/** Write the demo devices' secrets for `npm start`'s simulated devices: owner-only (0600). */
export function writeSimulatedDevices(dataDir: string, devices: DemoDeviceSecret[]): void {
  const body: SimulatedDevicesFile = { devices };
  writeFileSync(simulatedDevicesPath(dataDir), `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 });
}
