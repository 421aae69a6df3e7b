import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptsGzip, gzipOnce } from './compression.ts';

describe('acceptsGzip', () => {
  it.each([
    ['gzip, deflate, br, zstd', true],
    ['br;q=1.0, gzip;q=0.8', true],
    ['GZIP', true],
    ['x-gzip', true],
    ['*', true],
    ['identity', false],
    ['br', false],
    ['gzip;q=0', false],
    ['*, gzip;q=0', false],
    ['gzip;q=0, *', false],
    ['*;q=0', false],
    ['', false],
    [undefined, false],
  ])('%j → %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});

describe('gzipOnce', () => {
  it('compresses a body once and hands back the same bytes for it after', () => {
    const body = Buffer.from(JSON.stringify({ data: Array.from({ length: 200 }, (_, i) => i) }));
    const first = gzipOnce(body);
    expect(first.length).toBeLessThan(body.length);
    expect(gunzipSync(first).equals(body)).toBe(true);
    expect(gzipOnce(body)).toBe(first);
    expect(gzipOnce(Buffer.from(body))).not.toBe(first);
  });
});
