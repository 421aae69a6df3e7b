import { afterEach, describe, expect, it } from 'vitest';
import { apiOrigin, apiUrl } from './api-origin.ts';

function nameApi(content: string) {
  const meta = document.createElement('meta');
  meta.name = 'pluckers-api';
  meta.content = content;
  document.head.append(meta);
}

afterEach(() => {
  for (const meta of document.querySelectorAll('meta[name="pluckers-api"]')) meta.remove();
});

describe('apiUrl', () => {
  it('keeps paths relative when the page names no API (served by the API itself)', () => {
    expect(apiOrigin()).toBe('');
    expect(apiUrl('/api/v1/games')).toBe('/api/v1/games');
    expect(apiUrl('/uploads/avatars/a.webp')).toBe('/uploads/avatars/a.webp');
  });

  it("puts the API's origin in front of its paths when the page names one", () => {
    nameApi('https://api.example.ng/');
    expect(apiUrl('/api/v1/games?page=2')).toBe('https://api.example.ng/api/v1/games?page=2');
    expect(apiUrl('/uploads/avatars/a.webp')).toBe('https://api.example.ng/uploads/avatars/a.webp');
    // A provider's checkout, or a photo the API already gave in full, is left alone.
    expect(apiUrl('https://checkout.example.com/pay/1')).toBe('https://checkout.example.com/pay/1');
    expect(apiUrl('//cdn.example.com/a.webp')).toBe('//cdn.example.com/a.webp');
  });

  it('ignores a value that is not an http(s) origin', () => {
    for (const content of ['', 'api.example.ng', 'javascript:alert(1)', 'data:text/html,x']) {
      nameApi(content);
      expect(apiUrl('/api/v1/games'), content).toBe('/api/v1/games');
      for (const meta of document.querySelectorAll('meta[name="pluckers-api"]')) meta.remove();
    }
  });
});
