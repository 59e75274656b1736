import { describe, expect, it } from 'vitest';
import { PageCache } from '../../server/cache/page-cache.ts';

describe('PageCache', () => {
  it('answers a page only for the version it was stored under', () => {
    const cache = new PageCache();
    cache.set('site:2:0:20', 7, '{"items":[]}');
    expect(cache.get('site:2:0:20', 7)).toBe('{"items":[]}');
    expect(cache.get('site:2:0:20', 8)).toBeUndefined();
    expect(cache.get('site:3:0:20', 7)).toBeUndefined();
  });

  it('builds a missing page without asking the version, then serves it while the version holds', async () => {
    const cache = new PageCache();
    let version = 1;
    let builds = 0;
    let versionReads = 0;
    const current = async () => {
      versionReads += 1;
      return version;
    };
    const build = async () => {
      builds += 1;
      return { page: { items: [builds], total: 1 }, version };
    };
    expect(await cache.json('k', current, build)).toBe('{"items":[1],"total":1}');
    expect(versionReads).toBe(0);
    expect(await cache.json('k', current, build)).toBe('{"items":[1],"total":1}');
    expect([builds, versionReads]).toEqual([1, 1]);
    version = 2;
    expect(await cache.json('k', current, build)).toBe('{"items":[2],"total":1}');
    expect(await cache.json('k', current, build)).toBe('{"items":[2],"total":1}');
    expect(builds).toBe(2);
  });

  it('drops the oldest pages when the size limit is reached, and never stores an oversized one', () => {
    const cache = new PageCache(10);
    cache.set('a', 1, 'aaaa');
    cache.set('b', 1, 'bbbb');
    cache.set('c', 1, 'cccc');
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('b', 1)).toBe('bbbb');
    expect(cache.get('c', 1)).toBe('cccc');
    cache.set('huge', 1, 'x'.repeat(11));
    expect(cache.get('huge', 1)).toBeUndefined();
    expect(cache.size).toBe(2);
  });
});
