import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { testAppPerFile } from '../test/app.ts';
import { testDatabasePerFile } from '../test/database.ts';

const database = testDatabasePerFile();
/** One app for the tests that need no environment or clock of their own. */
const fileApp = testAppPerFile(database);

describe('API response compression', () => {
  it('compresses a large JSON answer with the best encoding the client accepts', async () => {
    const app = fileApp();
    const plain = await app.inject({ url: '/api/v1/bank' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const brotli = await app.inject({
      url: '/api/v1/bank',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(brotli.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(brotliDecompressSync(brotli.rawPayload).toString('utf8'))).toEqual(
      plain.json(),
    );

    const gzip = await app.inject({ url: '/api/v1/bank', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString('utf8'))).toEqual(plain.json());
  });

  it('leaves small answers and clients that accept no compression alone', async () => {
    const app = fileApp();
    // The health answer is small whatever other test files put in a shared database.
    const small = await app.inject({
      url: '/api/health',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(small.statusCode).toBe(200);
    expect(small.rawPayload.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();

    const identity = await app.inject({
      url: '/api/v1/bank',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.json().data.length).toBeGreaterThan(0);
  });

  it('refuses a compressed request body rather than inflating it', async () => {
    const app = fileApp();
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: Buffer.from([0x1f, 0x8b, 0x08, 0x00]),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/not valid JSON/);
  });
});
