import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDS, startTestServer, type TestServer } from './harness.ts';

/**
 * Names every JavaScript object has (`constructor`, `toString`, …) are not models: every route
 * that takes a model looks the catalogue up by its own entries only, and answers as for any other
 * unknown model (a 400 naming `modelId`, an empty list, a 404), never a 500 or a serial prefix of
 * "undefined".
 */
let t: TestServer;
let installer = '';

beforeAll(async () => {
  t = await startTestServer();
  installer = (await t.login('installerA')).access_token;
});
afterAll(() => t.close());

const BUILT_IN = [
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
];

describe.each(BUILT_IN)('the model "%s"', (model) => {
  it('is not a model of the catalogue when a device is put on a site', async () => {
    const answer = await t.call('POST', `/config/fleet/sites/${IDS.siteOfA}/installs`, {
      token: installer,
      body: { serial: 'HX5K-26-000777', modelId: model },
    });
    expect(answer).toMatchObject({
      status: 400,
      body: { field: 'modelId', message: `modelId: ${model} is not a model of the catalogue` },
    });
  });

  it('is not a model of the catalogue when a template is saved', async () => {
    const answer = await t.call('POST', '/config/fleet/config-templates', {
      token: installer,
      body: { name: 'Built-in', modelId: model, settings: { maxChargeCurrent: 40 } },
    });
    expect(answer).toMatchObject({ status: 400, body: { field: 'modelId' } });
  });

  it('has no templates and no devices', async () => {
    const templates = await t.call('GET', `/config/fleet/config-templates?modelId=${model}`, {
      token: installer,
    });
    expect(templates).toMatchObject({ status: 200, body: { items: [] } });
    const devices = await t.call('GET', `/config/install/device/${model}`, { token: installer });
    expect(devices).toMatchObject({ status: 200, body: { items: [], total: 0 } });
  });
});
