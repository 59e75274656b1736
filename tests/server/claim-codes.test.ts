import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProvisioningAnswer } from '../../contracts/claims.ts';
import { CLAIM_CODE_PATTERN, normalizeClaimCode, printedClaimCode } from '../../contracts/claims.ts';
import type { ClaimedDevice, InstalledDevice } from '../../contracts/installs.ts';
import { claimCodeHash } from '../../server/commissioning/claim-codes.ts';
import { readManufacturingList, registerDevices } from '../../server/commissioning/manufacturing-list.ts';
import { deviceSocketUrl } from '../../server/commissioning/provisioning-routes.ts';
import { giveAdminsSites, joinCompany, membershipOf } from '../../server/companies/memberships.ts';
import { REQUEST_LIMITS } from '../../server/limits/request-limits.ts';
import { catalogueIn } from '../../server/service-comms/catalogue-commands.ts';
import { checkDeviceSecret } from '../../server/service-comms/device-secrets.ts';
import { IDS, startTestServer, type TestServer } from './harness.ts';
import { pinInFreshWindow } from './limit-window.ts';

/**
 * Claiming a device with the serial and claim code on its label (`POST /fleet/sites/{siteId}/claims`):
 * a manufacturing list's serials only, each with its own code; another company's device refused
 * without naming it; a wrong code and an unknown serial answered alike; rate limited.
 */
let t: TestServer;
const token: Record<'installerA' | 'installerB' | 'owner' | 'admin', string> = {
  installerA: '',
  installerB: '',
  owner: '',
  admin: '',
};

const BASE32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const newCode = () => Array.from(randomBytes(16), (byte) => BASE32[byte & 31]).join('');

/** The list registered for this file: serial → code as printed. */
const labels = new Map<string, string>();
const serial = (n: number) => `HX5K-26-07${String(n).padStart(4, '0')}`;

beforeAll(async () => {
  t = await startTestServer();
  for (const who of Object.keys(token) as (keyof typeof token)[])
    token[who] = (await t.login(who)).access_token;
  for (let n = 1; n <= 60; n++) labels.set(serial(n), printedClaimCode(newCode()));
  const csv = ['serial,model,claim_code', ...[...labels].map(([s, code]) => `${s},HX-5000,${code}`)].join(
    '\n',
  );
  const reading = await readManufacturingList(csv, catalogueIn('public'));
  if (!reading.ok) throw new Error(reading.problems.join('; '));
  await registerDevices(t.server.ctx.db, reading.devices);
});
afterAll(() => t.close());

const claim = (who: keyof typeof token, siteId: number, body: unknown, ip?: string) =>
  t.call('POST', `/config/fleet/sites/${siteId}/claims`, { token: token[who], body, ...(ip ? { ip } : {}) });
const codeOf = (s: string) => labels.get(s) ?? '';

describe('claiming a device', () => {
  it('puts a registered device on the site with its code, as typed from the label, and keeps no plain code', async () => {
    const typed = codeOf(serial(1)).toLowerCase().replace(/-/g, ' ');
    const answer = await claim('installerA', IDS.siteOfA, {
      serial: serial(1).toLowerCase(),
      claimCode: typed,
    });
    expect(answer.status).toBe(201);
    const device = answer.body as ClaimedDevice;
    expect(device).toMatchObject({ serial: serial(1), modelId: 'HX-5000', siteId: IDS.siteOfA });
    expect(Date.parse(device.claimedAt)).not.toBeNaN();
    expect(device).not.toHaveProperty('secret');
    const stored = await t.server.ctx.db
      .selectFrom('device_registrations')
      .select('claim_code_hash')
      .where('serial', '=', serial(1))
      .executeTakeFirstOrThrow();
    expect(stored.claim_code_hash).toBe(claimCodeHash(codeOf(serial(1))));
    expect(stored.claim_code_hash).not.toContain(normalizeClaimCode(codeOf(serial(1))));
  });

  it('answers a wrong code and an unknown serial the same way', async () => {
    const wrong = await claim('installerA', IDS.siteOfA, { serial: serial(2), claimCode: codeOf(serial(3)) });
    const unknown = await claim('installerA', IDS.siteOfA, {
      serial: 'HX5K-26-999999',
      claimCode: codeOf(serial(3)),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual(unknown.body);
    expect(unknown.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'claim_not_matched', field: 'claimCode' });
  });

  it('refuses a device another company holds without naming the company or its site', async () => {
    expect(
      (await claim('installerB', IDS.siteOfB, { serial: serial(4), claimCode: codeOf(serial(4)) })).status,
    ).toBe(201);
    const refused = await claim('installerA', IDS.siteOfA, {
      serial: serial(4),
      claimCode: codeOf(serial(4)),
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'device_claimed_elsewhere' });
    const text = JSON.stringify(refused.body).toLowerCase();
    const siteB = await t.server.ctx.db
      .selectFrom('sites')
      .select('name')
      .where('id', '=', IDS.siteOfB)
      .executeTakeFirstOrThrow();
    for (const named of ['brightvolt', siteB.name.toLowerCase(), String(IDS.siteOfB)])
      expect(text).not.toContain(named);
  });

  it("compares the companies' records, not their people's addresses", async () => {
    const { db } = t.server.ctx;
    const companyOf = async (userId: number) => (await membershipOf(db, userId))?.companyId ?? 0;
    /** A site of `companyId` made by a new member of it, whose address is at `domain`. */
    const siteMadeBy = async (domain: string, companyId: number) => {
      const user = await db
        .insertInto('users')
        .values({
          main_email: `moved.${randomBytes(4).toString('hex')}@${domain}`,
          display_name: 'Moved',
          role: 'installer',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await joinCompany(db, user.id, companyId, 'installer');
      const site = await db
        .insertInto('sites')
        .values({
          name: `Made at ${domain}`,
          display_address: '1 Moved Rd',
          street_number: '1',
          street_name: 'Moved Rd',
          postal_code: '',
          locality: '',
          state: '',
          country: '',
          place_id: null,
          latitude: 0,
          longitude: 0,
          time_zone: 'UTC',
          owner_id: IDS.owner,
          installer_id: user.id,
          company_id: companyId,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await giveAdminsSites(db, companyId, [site.id]);
      return site.id;
    };
    // Someone at solarpros.example who works for Brightvolt: their site is Brightvolt's.
    const brightvoltSite = await siteMadeBy('solarpros.example', await companyOf(IDS.installerB));
    expect(
      (await claim('installerB', brightvoltSite, { serial: serial(13), claimCode: codeOf(serial(13)) }))
        .status,
    ).toBe(201);
    const refused = await claim('installerA', IDS.siteOfA, {
      serial: serial(13),
      claimCode: codeOf(serial(13)),
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'device_claimed_elsewhere' });
    // And someone at brightvolt.example who works for Solarpros: their site is Solarpros'.
    const solarprosSite = await siteMadeBy('brightvolt.example', await companyOf(IDS.installerA));
    expect(
      (await claim('installerA', solarprosSite, { serial: serial(14), claimCode: codeOf(serial(14)) }))
        .status,
    ).toBe(201);
    const told = await claim('installerA', IDS.siteOfA, {
      serial: serial(14),
      claimCode: codeOf(serial(14)),
    });
    expect(told.status).toBe(409);
    expect(told.body).toMatchObject({ code: 'device_installed_elsewhere' });
  });

  it("tells a device on another of the company's own sites as an install does, naming the site", async () => {
    expect(
      (await claim('installerA', IDS.siteOfA, { serial: serial(5), claimCode: codeOf(serial(5)) })).status,
    ).toBe(201);
    const again = await claim('installerA', IDS.siteOfOwner, {
      serial: serial(5),
      claimCode: codeOf(serial(5)),
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'device_installed_elsewhere' });
    expect((again.body as { message: string }).message).toContain(`site ${IDS.siteOfA}`);
    const here = await claim('installerA', IDS.siteOfA, { serial: serial(5), claimCode: codeOf(serial(5)) });
    expect(here.body).toMatchObject({ code: 'device_already_installed' });
  });

  it('can be claimed by another company once the first took it off its site', async () => {
    const first = (
      await claim('installerB', IDS.siteOfB, { serial: serial(6), claimCode: codeOf(serial(6)) })
    ).body as ClaimedDevice;
    expect(
      (await t.call('DELETE', `/config/fleet/installs/${first.id}`, { token: token.installerB })).status,
    ).toBe(204);
    expect(
      (await claim('installerA', IDS.siteOfA, { serial: serial(6), claimCode: codeOf(serial(6)) })).status,
    ).toBe(201);
  });

  it('answers 404 on a site the caller cannot see and 403 without the installer role, before looking at the code', async () => {
    expect(
      (await claim('installerA', IDS.siteOfB, { serial: serial(7), claimCode: codeOf(serial(7)) })).status,
    ).toBe(404);
    expect(
      (await claim('owner', IDS.siteOfOwner, { serial: serial(7), claimCode: 'AAAA-AAAA-AAAA-AAAA' })).status,
    ).toBe(403);
  });

  it('refuses malformed codes naming the field', async () => {
    for (const claimCode of ['', 'K7M2', 'U'.repeat(16), 'x'.repeat(65)]) {
      const answer = await claim('installerA', IDS.siteOfA, { serial: serial(8), claimCode });
      expect(answer.status, claimCode).toBe(400);
      expect(answer.body).toMatchObject({ code: 'invalid_input', field: 'claimCode' });
    }
  });
});

describe('putting a registered device on a site by serial alone', () => {
  it('refuses an install without the code: it is claimed', async () => {
    const answer = await t.call('POST', `/config/fleet/sites/${IDS.siteOfA}/installs`, {
      token: token.installerA,
      body: { serial: serial(9), modelId: 'HX-5000' },
    });
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ code: 'claim_code_needed' });
  });

  it('takes a replacement of a manufacturing list only with its own code', async () => {
    const old = (
      await claim('installerA', IDS.siteOfA, { serial: serial(10), claimCode: codeOf(serial(10)) })
    ).body as ClaimedDevice;
    const replace = (body: unknown) =>
      t.call('POST', `/config/fleet/installs/${old.id}/replace`, { token: token.installerA, body });
    expect((await replace({ serial: serial(11) })).body).toMatchObject({ code: 'claim_code_needed' });
    expect((await replace({ serial: serial(11), claimCode: codeOf(serial(12)) })).body).toMatchObject({
      code: 'claim_not_matched',
    });
    const done = await replace({ serial: serial(11), claimCode: codeOf(serial(11)) });
    expect(done.status).toBe(201);
    expect((done.body as InstalledDevice).serial).toBe(serial(11));
    expect(Date.parse((done.body as InstalledDevice).claimedAt ?? '')).not.toBeNaN();
  });
});

describe('the claim route under random input', () => {
  it('claims exactly a registered serial with its own code, once, and never answers 500', async () => {
    // Installer B claims here, and fewer times than the per-user limit (60 in 10 minutes).
    const claimed = new Set<string>();
    const registered = fc.integer({ min: 20, max: 40 }).map(serial);
    const serialText = fc.oneof(registered, fc.constant('HX5K-26-999998'), fc.string({ maxLength: 20 }));
    const codeText = fc.oneof(
      registered.map(codeOf),
      registered.map((s) => codeOf(s).toLowerCase().replace(/-/g, '')),
      fc.constant('0000-0000-0000-0000'),
      fc.string({ maxLength: 24 }),
    );
    await fc.assert(
      fc.asyncProperty(serialText, codeText, async (s, code) => {
        const normal = s.trim().toUpperCase();
        const answer = await claim('installerB', IDS.siteOfB, { serial: s, claimCode: code });
        const codeOk = CLAIM_CODE_PATTERN.test(normalizeClaimCode(code)) && code.length <= 64;
        const matches = labels.has(normal) && normalizeClaimCode(codeOf(normal)) === normalizeClaimCode(code);
        const expected = !/^[A-Z0-9]{2,8}-\d{2}-\d{6}$/.test(normal)
          ? { status: 400, body: { field: 'serial' } }
          : !codeOk
            ? { status: 400, body: { field: 'claimCode' } }
            : !matches
              ? { status: 400, body: { code: 'claim_not_matched' } }
              : claimed.has(normal)
                ? { status: 409, body: { code: 'device_already_installed' } }
                : { status: 201, body: { serial: normal } };
        expect(answer).toMatchObject(expected);
        if (answer.status === 201) claimed.add(normal);
      }),
      {
        numRuns: 45,
        examples: [
          [serial(20), codeOf(serial(20))],
          [serial(20), codeOf(serial(20))],
        ],
      },
    );
  });
});

describe('the rate limit', () => {
  it('answers 429 to a user past their claims, however right the next one is', async () => {
    const limit = REQUEST_LIMITS.claimPerUser.limit;
    pinInFreshWindow(t.clock, REQUEST_LIMITS.claimPerUser.windowSeconds);
    for (const who of ['admin', 'installerA'] as const) token[who] = (await t.login(who)).access_token;
    // Spread over addresses so that only the per-user limit can answer 429.
    for (let i = 0; i < limit; i++) {
      const answer = await claim(
        'admin',
        IDS.siteOfA,
        { serial: serial(50), claimCode: '0000-0000-0000-0000' },
        `192.0.2.${i}`,
      );
      expect(answer.status).toBe(400);
    }
    const over = await claim(
      'admin',
      IDS.siteOfA,
      { serial: serial(50), claimCode: codeOf(serial(50)) },
      '192.0.2.250',
    );
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ code: 'rate_limited' });
    expect(
      (
        await claim(
          'installerA',
          IDS.siteOfA,
          { serial: serial(51), claimCode: codeOf(serial(51)) },
          '192.0.2.251',
        )
      ).status,
    ).toBe(201);
  });
});

describe('a manufacturing list', () => {
  const catalogue = catalogueIn('public');
  it('names every bad line and registers nothing of a list with one', async () => {
    const reading = await readManufacturingList(
      [
        'Serial,Model,Claim_Code',
        'HX5K-26-060001,HX-5000,K7M2-Q9XD-4TRW-8HNB',
        'HX5K-26-060002,BX-10,K7M2-Q9XD-4TRW-8HNA',
        'HX5K-26-060003,HX-5000,K7M2',
        'nonsense,HX-5000,K7M2-Q9XD-4TRW-8HNB',
        'HX5K-26-060001,HX-5000,K7M2-Q9XD-4TRW-8HNB',
        'HX5K-26-060004,HX-9000,K7M2-Q9XD-4TRW-8HNB',
      ].join('\r\n'),
      catalogue,
    );
    expect(reading).toEqual({
      ok: false,
      problems: [
        'line 3: HX5K-26-060002 is not a BX-10 serial number (they start with BX10-)',
        'line 4: the claim code of HX5K-26-060003 is not 16 characters such as K7M2-Q9XD-4TRW-8HNB',
        'line 5: "nonsense" is not a serial number such as HX5K-24-000123',
        'line 6: HX5K-26-060001 is listed twice',
        'line 7: HX-9000 is not a model of the catalogue',
      ],
    });
    expect((await readManufacturingList('serial,model\nHX5K-26-060001,HX-5000', catalogue)).ok).toBe(false);
  });

  it('takes hashes instead of codes, and a list registered twice changes nothing', async () => {
    const code = newCode();
    const csv = `serial,model,claim_code_sha256\nBX10-26-060001,BX-10,${claimCodeHash(code).toUpperCase()}\n`;
    const reading = await readManufacturingList(csv, catalogue);
    if (!reading.ok) throw new Error(reading.problems.join('; '));
    expect(await registerDevices(t.server.ctx.db, reading.devices)).toEqual({
      added: 1,
      same: 0,
      differing: [],
    });
    expect(await registerDevices(t.server.ctx.db, reading.devices)).toEqual({
      added: 0,
      same: 1,
      differing: [],
    });
    const other = {
      ...reading.devices[0],
      claimCodeHash: claimCodeHash(newCode()),
    } as (typeof reading.devices)[0];
    expect(await registerDevices(t.server.ctx.db, [other])).toEqual({
      added: 0,
      same: 0,
      differing: ['BX10-26-060001'],
    });
    const answer = await claim('installerA', IDS.siteOfA, { serial: 'BX10-26-060001', claimCode: code });
    expect(answer.status).toBe(201);
  });
});

describe('provisioning a claimed device', () => {
  it("answers a new secret the device socket takes and the service's address; the old one stops working", async () => {
    const provision = (who: keyof typeof token, s: string) =>
      t.call('POST', `/config/fleet/devices/${s}/provisioning`, { token: token[who] });
    const first = await provision('installerA', serial(1));
    expect(first.status).toBe(201);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const answer = first.body as ProvisioningAnswer;
    expect(answer).toMatchObject({
      serialNumber: serial(1),
      address: 'ws://localhost:8080/config/service-comms/devices/ws',
    });
    expect((await checkDeviceSecret(t.server.ctx.db, serial(1), answer.secret)).ok).toBe(true);
    const second = (await provision('installerA', serial(1))).body as ProvisioningAnswer;
    expect((await checkDeviceSecret(t.server.ctx.db, serial(1), answer.secret)).ok).toBe(false);
    expect((await checkDeviceSecret(t.server.ctx.db, serial(1), second.secret)).ok).toBe(true);
    // Another company's installer is told nothing of the device.
    expect((await provision('installerB', serial(1))).status).toBe(404);
  });

  it('names the address at PUBLIC_APP_URL, over wss: where it is https', () => {
    expect(deviceSocketUrl({ PUBLIC_APP_URL: 'https://fleet.example/app', PORT: 8080 })).toBe(
      'wss://fleet.example/config/service-comms/devices/ws',
    );
  });
});
