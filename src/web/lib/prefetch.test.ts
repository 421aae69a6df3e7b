import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearPrefetched, prefetch, takeArrived, takePrefetched } from './prefetch.ts';

/** Cold-start prefetches (Home's first list, the unread count): used once, only while fresh. */
afterEach(() => {
  clearPrefetched();
  vi.useRealTimers();
});

const never = () => Promise.reject(new Error('the fallback should not run'));

describe('prefetch', () => {
  it('hands the request under way to the first taker only', async () => {
    prefetch('games:TRENDING', () => Promise.resolve(['a game']));
    await expect(takePrefetched('games:TRENDING', never)).resolves.toEqual(['a game']);
    await expect(
      takePrefetched('games:TRENDING', () => Promise.resolve(['again'])),
    ).resolves.toEqual(['again']);
  });

  it('asks again when the prefetch failed, so an old error never shows', async () => {
    prefetch('games:TRENDING', () => Promise.reject(new Error('Network Error')));
    await expect(
      takePrefetched('games:TRENDING', () => Promise.resolve(['fresh'])),
    ).resolves.toEqual(['fresh']);
  });

  it('ignores a prefetch older than 30 s', async () => {
    vi.useFakeTimers();
    prefetch('notifications:1', () => Promise.resolve('old'));
    vi.advanceTimersByTime(30_001);
    await expect(takePrefetched('notifications:1', () => Promise.resolve('new'))).resolves.toBe(
      'new',
    );
  });

  it('gives an answer that is already back for the first render, once', async () => {
    prefetch('games:TRENDING', () => Promise.resolve(['a game']));
    expect(takeArrived('games:TRENDING')).toBeUndefined();
    await Promise.resolve();
    expect(takeArrived('games:TRENDING')).toEqual(['a game']);
    expect(takeArrived('games:TRENDING')).toBeUndefined();
  });

  it('forgets everything on sign-out', async () => {
    prefetch('games:TRENDING', () => Promise.resolve(['for the old token']));
    clearPrefetched();
    await expect(takePrefetched('games:TRENDING', () => Promise.resolve([]))).resolves.toEqual([]);
  });
});
