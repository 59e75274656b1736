import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../bin/fleet-codec.mjs', import.meta.url));
export const vectors = (name: string): string =>
  fileURLToPath(new URL(`../vectors/${name}`, import.meta.url));

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node bin/fleet-codec.mjs …` as a real process, as a firmware engineer would. */
export function fleetCodec(...args: string[]): Run {
  const result = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 30_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
