import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const basic = (key: string) => `Basic ${Buffer.from(key).toString('base64')}`;

describe('the catalogue download, GET /config/devices-list', () => {
  it('answers 401 without the link key, or with a wrong one, and needs no api-key', async () => {
    const none = await t.call('GET', '/config/devices-list', { apiKey: null });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Basic/);
    const wrong = await t.call('GET', '/config/devices-list', {
      apiKey: null,
      headers: { authorization: basic('fleet:guess') },
    });
    expect(wrong.body).toMatchObject({ code: 'link_key_invalid' });
  });

  it('answers 200 with listVersion and devicesList from the bundled file', async () => {
    const answer = await t.call('GET', '/config/devices-list', {
      apiKey: null,
      headers: { authorization: basic('fleet:dev-link-key'), 'list-version': '-1' },
    });
    expect(answer.status).toBe(200);
    const body = answer.body as { listVersion: number; devicesList: Record<string, unknown> };
    expect(body.listVersion).toBe(7);
    expect(Object.keys(body.devicesList)).toEqual(expect.arrayContaining(['HX-5000', 'BX-10']));
    expect(answer.headers.get('list-version')).toBe('7');
  });

  it('answers 304 unchanged, without the body, when the caller holds the current version', async () => {
    const answer = await t.call('GET', '/config/devices-list', {
      apiKey: null,
      headers: { authorization: basic('fleet:dev-link-key'), 'list-version': '7' },
    });
    expect(answer.status).toBe(304);
    expect(answer.body).toBeNull();
    expect(answer.headers.get('list-version')).toBe('7');
  });

  it('answers the whole list to a caller holding an older version', async () => {
    const answer = await t.call('GET', '/config/devices-list', {
      apiKey: null,
      headers: { authorization: basic('fleet:dev-link-key'), 'list-version': '6' },
    });
    expect(answer.status).toBe(200);
    expect((answer.body as { listVersion: number }).listVersion).toBe(7);
  });

  it('answers 400 for a list-version that is not a whole number', async () => {
    const answer = await t.call('GET', '/config/devices-list', {
      apiKey: null,
      headers: { authorization: basic('fleet:dev-link-key'), 'list-version': 'seven' },
    });
    expect(answer.body).toMatchObject({ field: 'list-version' });
  });
});
