import { describe, expect, it } from 'vitest';
import { DevicesListDownloadError } from '../../machines/devices-list-error.ts';
import { BUNDLED_DEVICES_LIST, REFRESH_COOLDOWN_MS } from '../../machines/devices-list-machine.ts';
import {
  devicesList,
  devicesListError,
  isLoading,
  listVersion,
} from '../../machines/devices-list-selectors.ts';
import { CACHE_KEYS } from '../../machines/storage-keys.ts';
import { sampleConvertList, sampleList, startDevicesList } from './devices-list-harness.ts';
import { settle } from './fakes.ts';

type Harness = ReturnType<typeof startDevicesList>;

async function finishCompanions(h: Harness) {
  h.companions.last().resolve({ e1DevicesList: sampleList(3, 'E1-40'), convertList: sampleConvertList });
  await settle();
}

describe('devices list machine', () => {
  it('downloads on start with list-version -1, then holds and caches the list', async () => {
    const h = startDevicesList();
    expect(isLoading(h.actor.getSnapshot())).toBe(true);
    expect(h.download.last().input).toEqual({ listVersion: -1 });
    h.download.last().resolve(sampleList(7));
    await settle();
    await finishCompanions(h);
    const s = h.actor.getSnapshot();
    expect(isLoading(s)).toBe(false);
    expect(listVersion(s)).toBe(7);
    expect(Object.keys(devicesList(s) ?? {})).toEqual(['HX-5000']);
    expect(devicesListError(s)).toBeNull();
    expect(JSON.parse(h.storage.getItem(CACHE_KEYS.devicesList) ?? 'null')).toEqual(sampleList(7));
    expect(JSON.parse(h.storage.getItem(CACHE_KEYS.e1DevicesList) ?? 'null')).toEqual(sampleList(3, 'E1-40'));
    expect(JSON.parse(h.storage.getItem(CACHE_KEYS.convertList) ?? 'null')).toEqual(sampleConvertList);
  });

  it('falls back to the bundled list with version -1 and the serialized response on a failed download', async () => {
    const h = startDevicesList();
    h.download
      .last()
      .reject(new DevicesListDownloadError({ status: 503, statusText: 'Service Unavailable', body: '' }));
    await settle();
    expect(h.bundled.last().input).toEqual({ path: BUNDLED_DEVICES_LIST });
    h.bundled.last().resolve(sampleList(7, 'BX-10'));
    await settle();
    await finishCompanions(h);
    const s = h.actor.getSnapshot();
    expect(listVersion(s)).toBe(-1);
    expect(Object.keys(devicesList(s) ?? {})).toEqual(['BX-10']);
    expect(devicesListError(s)).toBe(
      'ERROR getting Devices List. {"status":503,"statusText":"Service Unavailable","body":""}',
    );
    expect(h.storage.getItem(CACHE_KEYS.devicesList)).toBeNull();
  });

  it('reports a network failure the same way', async () => {
    const h = startDevicesList();
    h.download.last().reject(new TypeError('fetch failed'));
    await settle();
    expect(devicesListError(h.actor.getSnapshot())).toBe(
      'ERROR getting Devices List. {"message":"fetch failed"}',
    );
    expect(listVersion(h.actor.getSnapshot())).toBe(-1);
  });

  it('refresh goes to landing, reloads, and cannot be sent again for 20 seconds', async () => {
    const h = startDevicesList();
    h.download.last().resolve(sampleList(7));
    await settle();
    await finishCompanions(h);
    expect(h.actor.getSnapshot().can({ type: 'devicesList.refresh' })).toBe(true);
    h.actor.send({ type: 'devicesList.refresh' });
    expect(h.navigations).toEqual(['/landing']);
    expect(isLoading(h.actor.getSnapshot())).toBe(true);
    expect(h.download.calls).toHaveLength(2);
    h.download.last().resolve(sampleList(8));
    await settle();
    await finishCompanions(h);
    expect(listVersion(h.actor.getSnapshot())).toBe(8);
    expect(h.actor.getSnapshot().can({ type: 'devicesList.refresh' })).toBe(false);
    h.actor.send({ type: 'devicesList.refresh' });
    expect(h.download.calls).toHaveLength(2);
    h.clock.increment(REFRESH_COOLDOWN_MS - 1);
    expect(h.actor.getSnapshot().can({ type: 'devicesList.refresh' })).toBe(false);
    h.clock.increment(1);
    expect(h.actor.getSnapshot().can({ type: 'devicesList.refresh' })).toBe(true);
  });

  it('cannot be refreshed while the first load runs', () => {
    const h = startDevicesList();
    expect(h.actor.getSnapshot().can({ type: 'devicesList.refresh' })).toBe(false);
  });

  it('keeps the main list when the E1 or convert list cannot be read, and says which', async () => {
    const h = startDevicesList();
    h.download.last().resolve(sampleList(7));
    await settle();
    h.companions.last().reject(new Error('/convert-list.json could not be read (HTTP 404)'));
    await settle();
    const s = h.actor.getSnapshot();
    expect(isLoading(s)).toBe(false);
    expect(listVersion(s)).toBe(7);
    expect(s.context.companionError).toBe('/convert-list.json could not be read (HTTP 404)');
  });
});
