import { describe, expect, it } from 'vitest';
import { MemoryCache } from './memory-cache.ts';

describe('MemoryCache', () => {
  it('forgets an entry when it expires', () => {
    const cache = new MemoryCache<string, number>(10);
    cache.set('a', 1, 1_000);
    expect(cache.get('a', 999)).toBe(1);
    expect(cache.get('a', 1_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('drops the oldest entry when full; setting a key again makes it the newest', () => {
    const cache = new MemoryCache<string, number>(2);
    cache.set('a', 1, 10);
    cache.set('b', 2, 10);
    cache.set('a', 1, 10);
    cache.set('c', 3, 10);
    expect(cache.get('b', 0)).toBeUndefined();
    expect(cache.get('a', 0)).toBe(1);
    expect(cache.get('c', 0)).toBe(3);
    expect(cache.size).toBe(2);
  });

  it('replaces, deletes and clears', () => {
    const cache = new MemoryCache<string, number>(2);
    cache.set('a', 1, 10);
    cache.set('a', 2, 10);
    expect(cache.get('a', 0)).toBe(2);
    cache.set('b', 3, 10);
    cache.delete('a');
    expect(cache.get('a', 0)).toBeUndefined();
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('deletes the entries whose value matches, and only those', () => {
    const cache = new MemoryCache<string, { userId: string }>(10);
    cache.set('s1', { userId: 'ada' }, 10);
    cache.set('s2', { userId: 'bola' }, 10);
    cache.set('s3', { userId: 'ada' }, 10);
    cache.deleteWhere((state) => state.userId === 'ada');
    expect([cache.get('s1', 0), cache.get('s2', 0), cache.get('s3', 0)]).toEqual([
      undefined,
      { userId: 'bola' },
      undefined,
    ]);
    expect(cache.size).toBe(1);
  });

  it('refuses a capacity below one', () => {
    expect(() => new MemoryCache(0)).toThrow(RangeError);
  });
});
