import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device } from '../../contracts/devices.ts';
import { DEMO_FIRMWARE, type FirmwareImageInfo } from '../../contracts/firmware.ts';
import type { Page } from '../../contracts/page.ts';
import { keyHashOf, parseVersion, signImage } from '../../server/firmware/sign-image.ts';
import type { SocketDevice } from '../../src/device-sim/online/socket-device.ts';
import { buildImage } from '../codec/firmware-images.ts';
import { IDS, startTestServer, type TestServer } from './harness.ts';
import { connectDevice } from './service-comms-devices.ts';

/**
 * Firmware images over HTTP: company staff upload signed MCUboot images (checked by the Wasm
 * parser and the server's trusted keys), whoever may update a device of a model reads its images,
 * and each device's firmware version is what it said in its hello.
 */
let t: TestServer;
const tokens = { admin: '', installerA: '', installerB: '', owner: '' };
/** A model on installer A's sites and on none of installer B's. */
let modelOfA = '';
const MAX_BYTES = 65_536;

beforeAll(async () => {
  t = await startTestServer({ FIRMWARE_MAX_BYTES: String(MAX_BYTES) });
  for (const who of Object.keys(tokens) as (keyof typeof tokens)[])
    tokens[who] = (await t.login(who)).access_token;
  const modelsOf = async (installer: number) =>
    (
      await t.server.ctx.db
        .selectFrom('devices')
        .innerJoin('site_access', 'site_access.site_id', 'devices.site_id')
        .select('devices.model_id')
        .distinct()
        .where('site_access.user_id', '=', installer)
        .execute()
    ).map((row) => row.model_id);
  // The demo gives both installers every model: installer B's units of one model leave B's sites.
  modelOfA = (await modelsOf(IDS.installerA))[0] ?? '';
  const sitesOfA = t.server.ctx.db
    .selectFrom('site_access')
    .select('site_id')
    .where('user_id', '=', IDS.installerA);
  const sitesOfB = t.server.ctx.db
    .selectFrom('site_access')
    .select('site_id')
    .where('user_id', '=', IDS.installerB);
  await t.server.ctx.db
    .deleteFrom('devices')
    .where('model_id', '=', modelOfA)
    .where('site_id', 'in', sitesOfB)
    .where('site_id', 'not in', sitesOfA)
    .execute();
  expect(modelOfA).not.toBe('');
  expect(await modelsOf(IDS.installerB)).not.toContain(modelOfA);
}, 120_000);
afterAll(() => t.close());

const devKey = () => {
  const key = t.server.ctx.firmware.trust.development?.privateKey;
  if (!key) throw new Error('the test server has no development key');
  return key;
};

const signed = (version: string, modelId = 'HX-5000', payload = Buffer.alloc(2000, 7)) =>
  signImage({ key: devKey(), modelId, version: parseVersion(version), payload });

async function upload(
  bytes: Uint8Array,
  query = 'model=HX-5000&channel=stable',
  token = tokens.admin,
  contentType = 'application/octet-stream',
) {
  const response = await fetch(`${t.origin}/config/fleet/firmware?${query}`, {
    method: 'POST',
    headers: {
      'api-key': t.server.ctx.env.API_KEY,
      authorization: `Bearer ${token}`,
      'content-type': contentType,
    },
    body: new Uint8Array(bytes),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const list = async (query = '', token = tokens.admin) =>
  (await t.call('GET', `/config/fleet/firmware${query}`, { token })) as {
    status: number;
    body: { images: FirmwareImageInfo[] };
  };

async function download(id: number, token: string) {
  const response = await fetch(`${t.origin}/config/fleet/firmware/${id}/image`, {
    headers: { 'api-key': t.server.ctx.env.API_KEY, authorization: `Bearer ${token}` },
  });
  return {
    status: response.status,
    bytes: new Uint8Array(await response.arrayBuffer()),
    headers: response.headers,
  };
}

const storedCount = async () =>
  Number(
    (
      await t.server.ctx.db
        .selectFrom('firmware_images')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('uploading a firmware image', () => {
  it('stores a signed image for company staff and answers 201 with its id, version and SHA-256', async () => {
    const bytes = signed('2.0.0+9');
    const answer = await upload(bytes, 'model=HX-5000&channel=beta');
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      id: expect.any(Number),
      modelId: 'HX-5000',
      version: '2.0.0+9',
      sha256: t.server.ctx.firmware.codec
        .parseImage(bytes)
        .sha256.reduce((s, b) => s + b.toString(16).padStart(2, '0'), ''),
      size: bytes.length,
      channel: 'beta',
      uploadedAt: expect.any(String),
    });
    const listed = await list('?model=HX-5000');
    expect(listed.body.images[0]).toEqual(answer.body);
    const served = await download(answer.body.id as number, tokens.admin);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('application/octet-stream');
    expect(Buffer.from(served.bytes).equals(bytes)).toBe(true);
  });

  it('answers 403 to anyone but company staff, and stores nothing', async () => {
    const before = await storedCount();
    for (const who of ['installerA', 'installerB', 'owner'] as const) {
      const answer = await upload(signed('2.1.0'), 'model=HX-5000&channel=stable', tokens[who]);
      expect(answer.status).toBe(403);
    }
    expect(await storedCount()).toBe(before);
  });

  const untrusted = generateKeyPairSync('ed25519').privateKey;
  it.each<[string, () => Uint8Array, string, RegExp]>([
    [
      'not an MCUboot image',
      () => Buffer.from('just some bytes that are not an image at all'),
      'model=HX-5000&channel=stable',
      /not an MCUboot image/,
    ],
    [
      'a hash that does not match',
      () => {
        const bytes = signed('2.2.0');
        bytes[40] = (bytes[40] as number) ^ 0xff;
        return bytes;
      },
      'model=HX-5000&channel=stable',
      /SHA-256 TLV does not match/,
    ],
    [
      'a missing TLV',
      () => buildImage({ key: devKey(), protectedEntries: null }),
      'model=HX-5000&channel=stable',
      /no model id TLV/,
    ],
    [
      'another model than asked',
      () => signed('2.3.0', 'BX-10'),
      'model=HX-5000&channel=stable',
      /for model BX-10, not HX-5000/,
    ],
    [
      'a key the server does not trust',
      () =>
        signImage({
          key: untrusted,
          modelId: 'HX-5000',
          version: parseVersion('2.4.0'),
          payload: Buffer.alloc(10),
        }),
      'model=HX-5000&channel=stable',
      /a key this server does not trust/,
    ],
    [
      'a signature that does not verify',
      () => {
        const bytes = signed('2.5.0');
        bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 1;
        return bytes;
      },
      'model=HX-5000&channel=stable',
      /Ed25519 signature does not verify/,
    ],
    [
      'a version uploaded already',
      () => signed(DEMO_FIRMWARE.offered),
      'model=HX-5000&channel=stable',
      /version 1\.1\.0 of HX-5000 is uploaded already/,
    ],
  ])(
    'refuses %s with 400 firmware_invalid naming it, and stores nothing',
    async (_case, make, query, message) => {
      const before = await storedCount();
      const answer = await upload(make(), query);
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('firmware_invalid');
      expect(answer.body.message).toMatch(message);
      expect(await storedCount()).toBe(before);
    },
  );

  it('keeps one of two uploads of one version sent at once', async () => {
    const bytes = signed('3.0.0');
    const answers = await Promise.all([upload(bytes), upload(bytes)]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400]);
  });

  it('refuses an image past FIRMWARE_MAX_BYTES with 413, and stores nothing', async () => {
    const before = await storedCount();
    const answer = await upload(signed('4.0.0', 'HX-5000', Buffer.alloc(MAX_BYTES, 1)));
    expect(answer).toEqual({
      status: 413,
      body: { code: 'firmware_too_large', message: `A firmware image may have at most ${MAX_BYTES} bytes` },
    });
    expect(await storedCount()).toBe(before);
  });

  it('stops reading a body sent without a length once it passes the cap, or once the bytes are no image', async () => {
    const streamed = async (bytes: Uint8Array) => {
      const response = await fetch(`${t.origin}/config/fleet/firmware?model=HX-5000&channel=stable`, {
        method: 'POST',
        headers: {
          'api-key': t.server.ctx.env.API_KEY,
          authorization: `Bearer ${tokens.admin}`,
          'content-type': 'application/octet-stream',
        },
        // Chunked: the server learns the size only by reading.
        body: new ReadableStream<Uint8Array>({
          start(controller) {
            for (let at = 0; at < bytes.length; at += 4096) controller.enqueue(bytes.slice(at, at + 4096));
            controller.close();
          },
        }),
        duplex: 'half',
      } as RequestInit);
      return { status: response.status, body: (await response.json()) as { code: string; message: string } };
    };
    const before = await storedCount();
    expect(await streamed(signed('4.1.0', 'HX-5000', Buffer.alloc(MAX_BYTES + 1000, 2)))).toMatchObject({
      status: 413,
      body: { code: 'firmware_too_large' },
    });
    expect(await streamed(Buffer.alloc(MAX_BYTES * 2, 0x50))).toMatchObject({
      status: 400,
      body: { code: 'firmware_invalid', message: expect.stringMatching(/^not an MCUboot image/) },
    });
    expect((await streamed(signed('4.2.0'))).status).toBe(201);
    expect(await storedCount()).toBe(before + 1);
  });

  it('takes only application/octet-stream, and only a model of the catalogue', async () => {
    expect(
      (await upload(signed('5.0.0'), 'model=HX-5000&channel=stable', tokens.admin, 'application/json'))
        .status,
    ).toBe(415);
    for (const model of ['constructor', 'toString', 'NOPE-1']) {
      const answer = await upload(signed('5.0.0', model), `model=${model}&channel=stable`);
      expect(answer).toMatchObject({ status: 400, body: { code: 'invalid_input', field: 'model' } });
      expect((await list(`?model=${model}`)).body.images).toEqual([]);
    }
    expect((await upload(signed('5.0.0'), 'model=HX-5000&channel=nightly')).status).toBe(400);
  });
});

describe('reading firmware images', () => {
  it("lists and serves a model's images to whoever may update one of its devices, and answers 404 to others", async () => {
    const demo = (await list(`?model=${modelOfA}`)).body.images.find(
      (image) => image.version === DEMO_FIRMWARE.offered,
    );
    expect(demo).toBeDefined();
    const id = demo?.id ?? 0;
    expect((await download(id, tokens.installerA)).status).toBe(200);
    expect((await list(`?model=${modelOfA}`, tokens.installerA)).body.images.map((i) => i.id)).toContain(id);
    for (const who of ['installerB', 'owner'] as const) {
      expect((await download(id, tokens[who])).status).toBe(404);
      expect((await list(`?model=${modelOfA}`, tokens[who])).body.images).toEqual([]);
    }
    expect((await download(999_999, tokens.admin)).status).toBe(404);
  });

  it("ships the demo's newer image for every demo model, signed with the development key", async () => {
    const models = await t.server.ctx.db.selectFrom('devices').select('model_id').distinct().execute();
    const images = (await list()).body.images.filter((image) => image.version === DEMO_FIRMWARE.offered);
    expect(images.map((image) => image.modelId).sort()).toEqual(models.map((row) => row.model_id).sort());
  });
});

describe('the trusted keys', () => {
  it('lists the public keys a device checks signatures with, by key hash, to anyone signed in', async () => {
    const { status, body } = (await t.call('GET', '/config/fleet/firmware/keys', {
      token: tokens.owner,
    })) as {
      status: number;
      body: { keys: { keyHash: string; publicKey: string }[] };
    };
    expect(status).toBe(200);
    expect(body.keys).toEqual([
      {
        keyHash: keyHashOf(devKey()).toString('hex'),
        publicKey: createPublicKey(devKey()).export({ type: 'spki', format: 'der' }).toString('base64'),
      },
    ]);
  });
});

describe("a device's firmware version", () => {
  let online: SocketDevice | undefined;
  afterAll(() => online?.stop());

  it('is what the device said in its hello, in the device list and in the device details', async () => {
    const device = await t.server.ctx.db
      .selectFrom('devices')
      .select(['serial', 'model_id'])
      .where('site_id', '=', IDS.siteOfA)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const before = (await t.call('GET', `/config/install/device/${device.model_id}?serial=${device.serial}`, {
      token: tokens.installerA,
    })) as { body: Page<Device> };
    expect(before.body.items[0]?.firmwareVersion).toBeNull();
    const secret = await t.call('POST', `/config/service-comms/devices/${device.serial}/secret`, {
      token: tokens.admin,
      apiKey: null,
    });
    online = await connectDevice(t.origin, {
      serialNumber: device.serial,
      modelId: device.model_id,
      secret: (secret.body as { secret: string }).secret,
      firmwareVersion: '1.0.0+3',
    });
    const details = (await t.call(
      'GET',
      `/config/install/device/${device.model_id}?serial=${device.serial}`,
      {
        token: tokens.installerA,
      },
    )) as { body: Page<Device> };
    expect(details.body.items[0]?.firmwareVersion).toBe('1.0.0+3');
    const listed = (await t.call('GET', `/config/fleet/sites/installs/${IDS.siteOfA}`, {
      token: tokens.installerA,
    })) as {
      body: Page<Device>;
    };
    expect(listed.body.items.find((d) => d.serial === device.serial)?.firmwareVersion).toBe('1.0.0+3');
    expect(
      listed.body.items.filter((d) => d.serial !== device.serial).every((d) => d.firmwareVersion === null),
    ).toBe(true);
  });
});
