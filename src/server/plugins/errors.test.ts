import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describe, expect, it, onTestFinished } from 'vitest';
import { z } from 'zod';
import { ERROR_CODES } from '../../shared/error-codes.ts';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { badRequest, conflict, ErrorCode, forbidden, notFound, STATUS_BY_CODE } from '../errors.ts';
import { testAppPerFile, testEnv } from '../test/app.ts';
import { testDatabasePerFile } from '../test/database.ts';
import { bearerFor, createUser } from '../test/factories.ts';
import { freePort } from '../test/instances.ts';

const database = testDatabasePerFile();
/** One app for the tests that need no environment or clock of their own. */
const fileApp = testAppPerFile(database);

/**
 * The real app plus routes that fail on purpose, registered before `ready()` the way a feature
 * module would register its own: the production code has no test-only routes.
 */
async function appWithFailingRoutes(): Promise<FastifyInstance> {
  const app = await buildApp(loadConfig(testEnv()), { database: database() });
  onTestFinished(() => app.close());
  const typed = app.withTypeProvider<ZodTypeProvider>();
  app.get('/api/v1/test-failures/unexpected', async () => {
    throw new Error('connection to 10.0.0.5 refused: password=hunter2');
  });
  app.get('/api/v1/test-failures/reject', () => Promise.reject(new TypeError('x is undefined')));
  // A query on a PostgreSQL nobody listens for any more, as during a failover.
  app.get('/api/v1/test-failures/database-gone', async () => {
    const gone = await openDatabase({
      databaseUrl: `postgres://postgres@127.0.0.1:${await freePort()}/gone`,
      dataDir: '',
      poolSize: 1,
    });
    try {
      await gone.db.execute(sql`SELECT 1`);
    } finally {
      await gone.close();
    }
  });
  app.get('/api/v1/test-failures/weird-status', async () => {
    throw Object.assign(new Error('redirect-ish failure'), { statusCode: 302 });
  });
  app.get('/api/v1/test-failures/out-of-range', async () => {
    throw Object.assign(new Error('odd library status'), { statusCode: 700 });
  });
  app.get('/api/v1/test-failures/upstream', async () => {
    throw Object.assign(new Error('upstream said: secret detail'), { statusCode: 503 });
  });
  app.get('/api/v1/test-failures/app-error/:kind', async (request) => {
    const { kind } = request.params as { kind: string };
    if (kind === 'bad-request') throw badRequest('Amount is too small');
    if (kind === 'forbidden') throw forbidden('Only operators can do this');
    if (kind === 'conflict') throw conflict('You already played this game');
    if (kind === 'game-full') throw conflict('This game is full', ErrorCode.GameFull);
    if (kind === 'unverified')
      throw forbidden('Verify your e-mail first', ErrorCode.EmailUnverified);
    throw notFound('Game not found');
  });
  typed.get(
    '/api/v1/test-failures/bad-response',
    { schema: { response: { 200: z.object({ count: z.number() }) } } },
    async () => ({ count: 'many' }) as unknown as { count: number },
  );
  await app.ready();
  return app;
}

describe('error responses', () => {
  it('answers 404 JSON for an unknown route under /api', async () => {
    const app = fileApp();
    for (const [method, url] of [
      ['GET', '/api/nope'],
      ['GET', '/api/v1/nope'],
      ['POST', '/api/v1/settings'],
      ['DELETE', '/api/v1/category'],
      ['GET', '/api'],
    ] as const) {
      const response = await app.inject({ method, url });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      const body = response.json();
      expect(body).toEqual({ message: expect.any(String), statusCode: 404, code: 'NOT_FOUND' });
      expect(body.message).toContain(url.split('?')[0]);
    }
  });

  it('answers 400 JSON for an invalid JSON body', async () => {
    const app = fileApp();
    const user = await createUser(app.db);
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/notification/mark-all-as-read',
      headers: { ...(await bearerFor(app, user)), 'content-type': 'application/json' },
      payload: '{"broken": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({
      message: expect.stringMatching(/json/i),
      statusCode: 400,
      code: 'BAD_REQUEST',
    });
  });

  it('answers 415 JSON for a body type the API does not read', async () => {
    const app = fileApp();
    const user = await createUser(app.db);
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/notification/mark-all-as-read',
      headers: { ...(await bearerFor(app, user)), 'content-type': 'application/xml' },
      payload: '<read/>',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({
      message: expect.any(String),
      statusCode: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
    });
  });

  it('answers 413 JSON for a body over the 1 MB limit', async () => {
    const app = fileApp();
    const user = await createUser(app.db);
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/notification/mark-all-as-read',
      headers: { ...(await bearerFor(app, user)), 'content-type': 'application/json' },
      payload: JSON.stringify({ padding: 'x'.repeat(1_100_000) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      message: expect.any(String),
      statusCode: 413,
      code: 'PAYLOAD_TOO_LARGE',
    });
  });

  it("answers 400 with the first failing rule's text on a validation failure", async () => {
    const app = fileApp();
    const user = await createUser(app.db);
    const headers = await bearerFor(app, user);
    for (const page of ['0', '-1', '1.5', 'abc', '100001']) {
      const response = await app.inject({ url: `/api/v1/notification?page=${page}`, headers });
      expect(response.statusCode, `page=${page}`).toBe(400);
      expect(response.json()).toEqual({
        message: 'Page must be a whole number from 1',
        statusCode: 400,
        code: 'VALIDATION_FAILED',
      });
    }
    const ok = await app.inject({ url: '/api/v1/notification?page=2', headers });
    expect(ok.statusCode).toBe(200);
  });

  it('answers the status and text of errors raised on purpose', async () => {
    const app = await appWithFailingRoutes();
    const cases = [
      ['bad-request', 400, 'Amount is too small', 'BAD_REQUEST'],
      ['forbidden', 403, 'Only operators can do this', 'FORBIDDEN'],
      ['not-found', 404, 'Game not found', 'NOT_FOUND'],
      ['conflict', 409, 'You already played this game', 'CONFLICT'],
      ['game-full', 409, 'This game is full', 'GAME_FULL'],
      ['unverified', 403, 'Verify your e-mail first', 'EMAIL_UNVERIFIED'],
    ] as const;
    for (const [kind, statusCode, message, code] of cases) {
      const response = await app.inject({ url: `/api/v1/test-failures/app-error/${kind}` });
      expect(response.statusCode).toBe(statusCode);
      expect(response.json()).toEqual({ message, statusCode, code });
    }
  });

  it('answers 500 "Something went wrong" without details for an unexpected error', async () => {
    const app = await appWithFailingRoutes();
    for (const path of ['unexpected', 'reject', 'weird-status', 'out-of-range', 'bad-response']) {
      const response = await app.inject({ url: `/api/v1/test-failures/${path}` });
      expect(response.statusCode, path).toBe(500);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json(), path).toEqual({
        message: 'Something went wrong',
        statusCode: 500,
        code: 'INTERNAL',
      });
      expect(response.body).not.toMatch(/stack|hunter2|10\.0\.0\.5|undefined|many|\.ts:/);
    }
  });

  it('answers 503 with Retry-After when the database cannot be reached, so clients try again', async () => {
    const app = await appWithFailingRoutes();

    const response = await app.inject({ url: '/api/v1/test-failures/database-gone' });

    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.json()).toEqual({
      message: 'The service is briefly unavailable. Please try again in a few seconds.',
      statusCode: 503,
      code: 'UNAVAILABLE',
    });
  });

  it('keeps a 5xx status an error carries but hides its message', async () => {
    const app = await appWithFailingRoutes();
    const response = await app.inject({ url: '/api/v1/test-failures/upstream' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      message: 'Something went wrong',
      statusCode: 503,
      code: 'UNAVAILABLE',
    });
  });

  it('gives every code of the shared list one status, a client error or a server one', () => {
    for (const code of ERROR_CODES) {
      const status = STATUS_BY_CODE[code];
      expect(status >= 400 && status < 600, code).toBe(true);
    }
    expect(Object.keys(STATUS_BY_CODE).sort()).toEqual([...ERROR_CODES].sort());
  });
});
