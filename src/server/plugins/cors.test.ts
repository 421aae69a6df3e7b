import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { pngOf, uploadPhoto } from '../modules/profile/test-fixtures.ts';
import { buildTestApp, testAppPerFile } from '../test/app.ts';
import { testDatabasePerFile } from '../test/database.ts';
import { bearerFor, createUser } from '../test/factories.ts';

/** A web app on another origin may call the API, and only a listed one. */
const database = testDatabasePerFile();

const APP_ORIGIN = 'https://app.example.ng';
const SECOND_ORIGIN = 'http://localhost:5173';
const OTHER_ORIGIN = 'https://evil.example.com';
const CORS_ENV = { CORS_ORIGINS: `${APP_ORIGIN},${SECOND_ORIGIN}` };
/** One app with CORS_ENV for the tests that need nothing else of their own. */
const corsApp = testAppPerFile(database, CORS_ENV);

function preflight(
  app: FastifyInstance,
  origin: string,
  options: { url?: string; method?: string; headers?: string } = {},
) {
  return app.inject({
    method: 'OPTIONS',
    url: options.url ?? '/api/v1/game/play',
    headers: {
      origin,
      'access-control-request-method': options.method ?? 'POST',
      'access-control-request-headers': options.headers ?? 'authorization,content-type',
    },
  });
}

const splitList = (value: string | string[] | number | undefined) =>
  String(value ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);

const CORS_HEADERS = [
  'access-control-allow-origin',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-allow-credentials',
  'access-control-expose-headers',
  'access-control-max-age',
];

function expectNoCorsHeaders(headers: Record<string, unknown>) {
  for (const name of CORS_HEADERS) expect(headers[name], name).toBeUndefined();
}

describe('CORS with CORS_ORIGINS set', () => {
  it('answers a preflight from a listed origin with 204 and what the API uses', async () => {
    const app = corsApp();

    for (const origin of [APP_ORIGIN, SECOND_ORIGIN]) {
      const response = await preflight(app, origin, {
        url: '/api/v1/withdrawal',
        headers: 'authorization,content-type,idempotency-key',
      });
      expect(response.statusCode, response.body).toBe(204);
      expect(response.body).toBe('');
      expect(response.headers['access-control-allow-origin']).toBe(origin);
      expect(splitList(response.headers['access-control-allow-methods'])).toEqual(
        expect.arrayContaining(['get', 'post', 'put', 'delete']),
      );
      expect(splitList(response.headers['access-control-allow-headers'])).toEqual(
        expect.arrayContaining(['authorization', 'content-type', 'idempotency-key']),
      );
      expect(response.headers['access-control-max-age']).toBe('7200');
      // Bearer tokens only: a page is never allowed to send the visitor's cookies along.
      expect(response.headers['access-control-allow-credentials']).toBeUndefined();
      expect(splitList(response.headers.vary)).toContain('origin');
    }
  });

  it('answers the preflight of any API route before its token check', async () => {
    const app = corsApp();

    for (const [url, method] of [
      ['/api/v1/user', 'GET'],
      ['/api/v1/user', 'PUT'],
      ['/api/v1/user/email/pending', 'DELETE'],
      ['/api/v1/admin/games', 'POST'],
    ] as const) {
      const response = await preflight(app, APP_ORIGIN, { url, method });
      expect(response.statusCode, `${method} ${url}`).toBe(204);
      expect(response.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    }
  });

  it('grants another origin nothing: its preflight is a 404 without any CORS header', async () => {
    const app = corsApp();

    for (const origin of [
      OTHER_ORIGIN,
      `${APP_ORIGIN}.evil.com`,
      'null',
      'http://app.example.ng',
    ]) {
      const response = await preflight(app, origin);
      expect(response.statusCode, origin).toBe(404);
      expect(response.json()).toEqual({
        statusCode: 404,
        code: 'NOT_FOUND',
        message: expect.any(String),
      });
      expectNoCorsHeaders(response.headers);
    }
  });

  it('adds the allow-origin and exposed headers to real responses, errors included', async () => {
    const app = corsApp();
    const user = await createUser(database().db);
    const headers = { ...(await bearerFor(app, user)), origin: APP_ORIGIN };

    const me = await app.inject({ url: '/api/v1/user', headers });
    expect(me.statusCode, me.body).toBe(200);
    expect(me.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    expect(splitList(me.headers['access-control-expose-headers'])).toEqual(
      expect.arrayContaining([
        'retry-after',
        'x-ratelimit-limit',
        'x-ratelimit-remaining',
        'x-ratelimit-reset',
      ]),
    );
    expect(me.headers['access-control-allow-credentials']).toBeUndefined();

    // A client on another origin reads the error message only if the error carries the header.
    const refused = await app.inject({ url: '/api/v1/user', headers: { origin: APP_ORIGIN } });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({
      statusCode: 401,
      code: 'UNAUTHORIZED',
      message: 'Unauthorized',
    });
    expect(refused.headers['access-control-allow-origin']).toBe(APP_ORIGIN);

    const other = await app.inject({
      url: '/api/v1/user',
      headers: { ...headers, origin: OTHER_ORIGIN },
    });
    expect(other.statusCode).toBe(200);
    expectNoCorsHeaders(other.headers);

    const sameOrigin = await app.inject({ url: '/api/v1/settings' });
    expect(sameOrigin.statusCode).toBe(200);
    expectNoCorsHeaders(sameOrigin.headers);
  });

  it('does not count preflights against the per-client limit, and a 429 says when to retry', async () => {
    const app = await buildTestApp(database(), { ...CORS_ENV, RATE_LIMIT_MAX: '3' });
    const from = { origin: APP_ORIGIN };

    for (let index = 0; index < 5; index += 1)
      expect((await preflight(app, APP_ORIGIN)).statusCode).toBe(204);
    const first = await app.inject({ url: '/api/v1/settings', headers: from });
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-ratelimit-remaining']).toBe('2');

    // Another origin's preflight is not answered, so it is an ordinary request and counts.
    expect((await preflight(app, OTHER_ORIGIN)).statusCode).toBe(404);
    await app.inject({ url: '/api/v1/settings', headers: from });
    const limited = await app.inject({ url: '/api/v1/settings', headers: from });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('lets listed origins show profile photos: cross-origin CORP on photos only', async () => {
    const app = corsApp();
    const user = await createUser(database().db);
    const url = await uploadPhoto(app, await bearerFor(app, user), await pngOf(40));

    const photo = await app.inject({ url, headers: { origin: APP_ORIGIN } });
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(photo.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    // As an <img> loads it: no Origin header at all.
    const image = await app.inject({ url });
    expect(image.headers['cross-origin-resource-policy']).toBe('cross-origin');

    const api = await app.inject({ url: '/api/v1/settings', headers: { origin: APP_ORIGIN } });
    expect(api.headers['cross-origin-resource-policy']).toBe('same-origin');
    const page = await app.inject({ url: '/uploads/other.webp' });
    expect(page.headers['cross-origin-resource-policy']).toBe('same-origin');
  });
});

describe('CORS without CORS_ORIGINS (same origin only)', () => {
  it('answers no preflight and adds no CORS header, whatever the origin', async () => {
    const app = await buildTestApp(database());
    const user = await createUser(database().db);

    const response = await preflight(app, APP_ORIGIN);
    expect(response.statusCode).toBe(404);
    expectNoCorsHeaders(response.headers);

    const me = await app.inject({
      url: '/api/v1/user',
      headers: { ...(await bearerFor(app, user)), origin: APP_ORIGIN },
    });
    expect(me.statusCode).toBe(200);
    expectNoCorsHeaders(me.headers);
  });

  it('keeps profile photos same-origin', async () => {
    const app = await buildTestApp(database());
    const user = await createUser(database().db);
    const url = await uploadPhoto(app, await bearerFor(app, user), await pngOf(50));

    const photo = await app.inject({ url });
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['cross-origin-resource-policy']).toBe('same-origin');
  });
});
