import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DEVICE_SOCKET_PATH } from './service-comms.ts';
import { hasSimulatedDevices, simulatedDevicesPath } from './simulated-devices-file.ts';

const SIMULATE_CLI = fileURLToPath(new URL('../../src/device-sim/online/simulate-cli.ts', import.meta.url));

/**
 * Run the demo's simulated devices (`DATA_DIR/simulated-devices.json`) as a child process that
 * connects to this server's device socket, as `npm run simulate` would. The child is the device
 * side: it runs outside the server so the server never imports the app's simulator.
 */
export function startSimulatedDevices(dataDir: string, port: number): ChildProcess | undefined {
  if (!hasSimulatedDevices(dataDir)) return undefined;
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      SIMULATE_CLI,
      '--file',
      simulatedDevicesPath(dataDir),
      '--url',
      `ws://127.0.0.1:${port}${DEVICE_SOCKET_PATH}`,
      '--with-parent',
    ],
    // The child's stdin closes when this process ends, however it ends: the child then stops.
    { stdio: ['pipe', 'inherit', 'inherit'] },
  );
  child.on('error', (error) => console.error('[simulated devices] could not start:', error.message));
  console.log('Simulated devices: starting the demo devices (SIMULATED_DEVICES=0 turns them off)');
  return child;
}
