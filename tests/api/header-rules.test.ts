import { describe, expect, it } from 'vitest';
import { asAccessToken } from '../../machines/auth/tokens.ts';
import { isFirmwarePath, isPublicPath, normalisePath, requestHeaders } from '../../src/api/header-rules.ts';

const headersFor = (service: 'config' | 'monitoring', path: string) =>
  requestHeaders({ service, path, apiKey: 'the-key', accessToken: asAccessToken('the-token') });

describe('header rules (specification §7)', () => {
  it.each([
    ['/fleet/sites/12', true, true],
    ['/fleet/site-list/4/0', true, true],
    ['/users/12', true, true],
    ['/users/role/admin', true, true],
    ['/users/installer/add/1/2', true, true],
    ['/fleet/site-access/change-roles', true, true],
    ['/install/device/HX-5000?serial=HX5K-24-000123', true, true],
    ['/auth', true, false],
    ['/auth/v2/login', true, false],
    ['/auth/v2/refresh', true, false],
    ['/users', true, false],
    ['/users/', true, false],
    ['/users/password', true, false],
    ['/users/password-reset', true, false],
    ['/users/password-reset?x=1', true, false],
    ['/service-comms/devices/HX5K-24-000123', false, true],
    ['/fleet/service-comms', false, true],
    ['/firmware/HX-5000/latest', false, false],
    ['/fleet/firmware?model=HX-5000', true, true],
    ['/fleet/firmware/3/image', true, true],
  ])('configuration %s: api-key %s, Bearer %s', (path, apiKey, bearer) => {
    const headers = headersFor('config', path);
    expect(headers['Content-Type']).toBe('application/json');
    expect(headers['api-key'] === 'the-key').toBe(apiKey);
    expect(headers.Authorization === 'Bearer the-token').toBe(bearer);
  });

  it.each([
    ['/devices/HX5K-24-000123/readings', true],
    ['/auth/v2/configurator-login', false],
    ['/auth/v2/refresh', false],
  ])('monitoring %s: never an api-key, Bearer %s', (path, bearer) => {
    const headers = headersFor('monitoring', path);
    expect(headers['Content-Type']).toBe('application/json');
    expect(headers['api-key']).toBeUndefined();
    expect(headers.Authorization === 'Bearer the-token').toBe(bearer);
  });

  it('sends no Authorization header when there is no access token', () => {
    const headers = requestHeaders({
      service: 'config',
      path: '/fleet/sites/1',
      apiKey: 'k',
      accessToken: null,
    });
    expect(headers).toEqual({ 'Content-Type': 'application/json', 'api-key': 'k' });
  });

  it('does not take a path that merely starts like a public one for a public path', () => {
    expect(isPublicPath('/authority')).toBe(false);
    expect(isPublicPath('/users-export')).toBe(false);
    expect(isPublicPath('/users/password/history')).toBe(false);
    expect(isFirmwarePath('/firmwares')).toBe(false);
  });

  it('normalises query, hash, trailing slashes and a missing leading slash', () => {
    expect(normalisePath('users/password/?a=1#x')).toBe('/users/password');
    expect(normalisePath('/')).toBe('/');
    expect(normalisePath('')).toBe('/');
  });
});
