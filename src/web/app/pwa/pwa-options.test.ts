import { describe, expect, it } from 'vitest';
import { API_CACHE } from '../../lib/cache-names.ts';
import { API_READS, pwaOptions } from './pwa-options.ts';

/** What the service worker may answer from its saved copy. */
describe('the service worker options', () => {
  const origin = 'https://pluckers.example';
  const cached = (path: string) => API_READS.test(`${origin}/api/v1${path}`);

  it("keeps the player's reads for offline use", () => {
    for (const path of [
      '/user',
      '/settings',
      '/game?gameType=TRENDING',
      '/game/played',
      '/game/0b9f3c55-2f7e-4b61-9a53-1c2d3e4f5a6b',
      '/payment?page=1',
      '/withdrawal?page=2',
      '/notification?page=1',
      '/leaderboard',
    ]) {
      expect(cached(path), path).toBe(true);
    }
  });

  it('keeps nothing of sign-in, KYC, limits, payment starts or the console', () => {
    for (const path of [
      '/auth/login',
      '/kyc',
      '/responsible-play',
      '/payment/transactpay',
      '/payment/methods',
      '/withdrawal/request',
      '/admin/settings',
      '/game/0b9f3c55-2f7e-4b61-9a53-1c2d3e4f5a6b/draw',
    ]) {
      expect(cached(path), path).toBe(false);
    }
  });

  it('caches GETs only, queues nothing, and asks for a reload before a new version', () => {
    const rules = pwaOptions.workbox?.runtimeCaching ?? [];
    const api = rules.find((rule) => rule.urlPattern === API_READS);
    expect(api?.method).toBe('GET');
    expect(api?.handler).toBe('NetworkFirst');
    expect(api?.options?.cacheName).toBe(API_CACHE);
    expect(api?.options?.backgroundSync).toBeUndefined();
    for (const rule of rules) expect(rule.options?.backgroundSync).toBeUndefined();
    expect(pwaOptions.registerType).toBe('prompt');
    expect(pwaOptions.workbox?.skipWaiting).toBeUndefined();
  });
});
