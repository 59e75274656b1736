import { describe, expect, it } from 'vitest';
import { PageCache } from '../../server/access/page-cache.ts';

describe('PageCache', () => {
  it('answers a page only for the version it was stored under', () => {
    const cache = new PageCache();
    cache.set('site:2:0:20', 7, '{"items":[]}');
    expect(cache.get('site:2:0:20', 7)).toBe('{"items":[]}');
    expect(cache.get('site:2:0:20', 8)).toBeUndefined();
    expect(cache.get('site:3:0:20', 7)).toBeUndefined();
  });

  it('builds a missing page once and serves the stored text after that', async () => {
    const cache = new PageCache();
    let builds = 0;
    const build = async () => {
      builds += 1;
      return { items: [1, 2], total: 2 };
    };
    expect(await cache.json('k', 1, build)).toBe('{"items":[1,2],"total":2}');
    expect(await cache.json('k', 1, build)).toBe('{"items":[1,2],"total":2}');
    expect(builds).toBe(1);
    await cache.json('k', 2, build);
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
