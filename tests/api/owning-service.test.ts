import { describe, expect, it } from 'vitest';
import { owningService } from '../../src/api/api-client.ts';

describe('which service a 401 refreshes', () => {
  it.each([
    ['/config/fleet/sites/1', '/config', 'config'],
    ['/config', '/config/', 'config'],
    ['https://config.example/api/users/1', 'https://config.example/api', 'config'],
    ['/monitoring/me', '/config', 'monitoring'],
    ['/configuration/x', '/config', 'monitoring'],
    ['https://monitor.example/me', 'https://config.example', 'monitoring'],
  ] as const)('%s with configuration at %s → %s', (url, base, expected) => {
    expect(owningService(url, base)).toBe(expected);
  });
});
