import { execFile } from 'node:child_process';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from '../../server/env.ts';
import { checkSignedImage } from '../../server/firmware/check-image.ts';
import { DEVELOPMENT_KEY_FILE, loadFirmwareTrust } from '../../server/firmware/firmware-keys.ts';
import { keyHashOf, parseVersion, signImage } from '../../server/firmware/sign-image.ts';
import type { FirmwareCodec } from '../../src/codec/firmware/image-types.ts';
import { loadFirmwareCodec } from '../../src/codec/load-node.ts';

/** Which keys firmware must be signed with: the development key by default, named keys in production. */
const temp = mkdtempSync(join(tmpdir(), 'fleet-firmware-keys-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
let firmware: FirmwareCodec;
beforeAll(async () => {
  firmware = await loadFirmwareCodec();
});

const spki = (key = generateKeyPairSync('ed25519').publicKey) =>
  key.export({ type: 'spki', format: 'der' }).toString('base64');
const production = {
  NODE_ENV: 'production',
  API_KEY: 'k3y-of-our-own',
  LINK_KEY: 'fleet:s3cret-link',
  PUBLIC_APP_URL: 'https://fleet.example.com',
};

describe('the firmware keys a server trusts', () => {
  it('is a development key made in DATA_DIR at first start (mode 0600), the same at the next start', () => {
    const dir = join(temp, 'dev');
    const first = loadFirmwareTrust({ dataDir: dir, publicKeys: [], production: false });
    const path = join(dir, DEVELOPMENT_KEY_FILE);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    const again = loadFirmwareTrust({ dataDir: dir, publicKeys: [], production: false });
    expect([...again.keys.keys()]).toEqual([...first.keys.keys()]);
    expect(first.development?.path).toBe(path);
  });

  it('is the keys FIRMWARE_PUBLIC_KEYS names, and no development key then', () => {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const env = parseEnv({ FIRMWARE_PUBLIC_KEYS: ` ${spki(publicKey)} , ${spki()}` });
    const trust = loadFirmwareTrust({
      dataDir: join(temp, 'named'),
      publicKeys: env.FIRMWARE_PUBLIC_KEYS,
      production: false,
    });
    expect(trust.keys.size).toBe(2);
    expect(trust.keys.has(keyHashOf(publicKey).toString('hex'))).toBe(true);
    expect(trust.development).toBeUndefined();
    const image = firmware.parseImage(
      signImage({
        key: privateKey,
        modelId: 'HX-5000',
        version: parseVersion('1.0.0'),
        payload: Buffer.alloc(64),
      }),
    );
    expect(() => checkSignedImage(image, 'HX-5000', trust)).not.toThrow();
  });

  it('takes a PEM public key as well as its base64 body, and names a bad one', () => {
    const pem = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(parseEnv({ FIRMWARE_PUBLIC_KEYS: pem }).FIRMWARE_PUBLIC_KEYS).toHaveLength(1);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey;
    for (const bad of ['not-a-key', spki(rsa)])
      expect(() => parseEnv({ FIRMWARE_PUBLIC_KEYS: bad })).toThrow(
        /FIRMWARE_PUBLIC_KEYS must be Ed25519 public keys/,
      );
  });

  it('must be named in production: the development key is refused', () => {
    expect(() => parseEnv(production)).toThrow(EnvError);
    expect(() => parseEnv(production)).toThrow(
      /FIRMWARE_PUBLIC_KEYS: name the public keys firmware images are signed with/,
    );
    expect(parseEnv({ ...production, FIRMWARE_PUBLIC_KEYS: spki() }).FIRMWARE_PUBLIC_KEYS).toHaveLength(1);
  });

  it('refuses, in production, a key list that names the development key of DATA_DIR', () => {
    const dir = join(temp, 'prod');
    const dev = loadFirmwareTrust({ dataDir: dir, publicKeys: [], production: false }).development;
    if (!dev) throw new Error('no development key');
    // The public half of the development key, as someone might paste it into the configuration.
    const publicOfDev = spki(createPublicKey(dev.privateKey));
    const devPublic = spki();
    expect(() => loadFirmwareTrust({ dataDir: dir, publicKeys: [publicOfDev], production: true })).toThrow(
      /names the development key .* refused when NODE_ENV=production/,
    );
    expect(loadFirmwareTrust({ dataDir: dir, publicKeys: [devPublic], production: true }).keys.size).toBe(1);
  });
});

function sign(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'server/firmware/sign-cli.ts', ...args],
      { timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

describe('npm run firmware:sign', () => {
  it('writes an image the parser reads and the key verifies', async () => {
    const dir = join(temp, 'sign');
    const trust = loadFirmwareTrust({ dataDir: dir, publicKeys: [], production: false });
    const payload = join(dir, 'app.bin');
    writeFileSync(payload, Buffer.alloc(3000, 9));
    const out = join(dir, 'app.signed.bin');
    const run = await sign([
      '--key',
      join(dir, DEVELOPMENT_KEY_FILE),
      '--model',
      'BX-10',
      '--version',
      '1.4.2+17',
      '--in',
      payload,
      '--out',
      out,
    ]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain(`${out}: BX-10 1.4.2+17`);
    const image = firmware.parseImage(readFileSync(out));
    expect(image).toMatchObject({ modelId: 'BX-10', versionText: '1.4.2+17', payloadSize: 3000 });
    expect(() => checkSignedImage(image, 'BX-10', trust)).not.toThrow();
  }, 60_000);

  it('says what is wrong with exit code 2: a missing option, a bad version', async () => {
    const missing = await sign(['--model', 'BX-10']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Missing --key, --version, --in, --out\nUsage: npm run firmware:sign/);
    const key = join(temp, 'sign', DEVELOPMENT_KEY_FILE);
    const bad = await sign([
      '--key',
      key,
      '--model',
      'BX-10',
      '--version',
      '1.2',
      '--in',
      key,
      '--out',
      join(temp, 'x'),
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/version "1.2" is not major.minor.revision/);
  }, 60_000);
});
