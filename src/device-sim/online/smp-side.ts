import { createPublicKey } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadFirmwareCodec } from '../../codec/load-node.ts';
import { FirmwareKeyring } from '../firmware-keyring.ts';
import { SmpDevice } from '../smp-device.ts';

/**
 * The public keys a simulated device trusts, DER SubjectPublicKeyInfo: `FIRMWARE_PUBLIC_KEYS` (as
 * the server reads it: base64 DER or PEM, comma-separated), else the public half of the
 * development key the server keeps in `DATA_DIR` (default `data`). Empty when there is neither.
 */
export function trustedKeysFromEnvironment(env: NodeJS.ProcessEnv = process.env): Uint8Array[] {
  const listed = (env.FIRMWARE_PUBLIC_KEYS ?? '')
    .split(',')
    .map((text) => text.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, '').replace(/\s+/g, ''))
    .filter(Boolean);
  if (listed.length > 0) return listed.map((base64) => new Uint8Array(Buffer.from(base64, 'base64')));
  const developmentKey = join(env.DATA_DIR ?? 'data', 'firmware-signing-key.pem');
  if (!existsSync(developmentKey)) return [];
  const der = createPublicKey(readFileSync(developmentKey, 'utf8')).export({ type: 'spki', format: 'der' });
  return [new Uint8Array(der)];
}

/** The SMP side of a simulated device of `modelId` running `version`, trusting `keys`. */
export async function smpSide(options: {
  modelId: string;
  version: string;
  keys: readonly Uint8Array[];
  /** False: a new image does not come up, and the watchdog's restart reverts it. */
  healthy?: boolean;
}): Promise<SmpDevice> {
  const firmware = await loadFirmwareCodec();
  return new SmpDevice({
    firmware,
    modelId: options.modelId,
    version: options.version,
    keyring: await FirmwareKeyring.of(firmware, options.keys),
    healthy: options.healthy ?? true,
  });
}
