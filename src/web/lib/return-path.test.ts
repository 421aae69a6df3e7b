import { describe, expect, it } from 'vitest';
import { loginHref, safeReturnPath } from './return-path.ts';

describe('safeReturnPath', () => {
  it('keeps a path of this site with its query and hash', () => {
    expect(safeReturnPath('/admin/withdrawals?status=PENDING#top')).toBe(
      '/admin/withdrawals?status=PENDING#top',
    );
    expect(safeReturnPath('/GameDetails?id=42')).toBe('/GameDetails?id=42');
  });

  it.each([
    null,
    '',
    'https://evil.example/',
    'http://evil.example',
    '//evil.example/x',
    '/\\evil.example',
    '/\t/evil.example',
    'javascript:alert(1)',
    'evil.example',
    '/login',
    '/LOGIN',
    '/auth/validate/abc',
  ])('refuses %j', (raw) => {
    expect(safeReturnPath(raw)).toBeNull();
  });
});

describe('loginHref', () => {
  it('carries the current page, and nothing for Home', () => {
    window.history.replaceState(null, '', '/MySubmissions?x=1');
    expect(loginHref()).toBe(`/login?next=${encodeURIComponent('/MySubmissions?x=1')}`);
    window.history.replaceState(null, '', '/');
    expect(loginHref()).toBe('/login');
  });
});
