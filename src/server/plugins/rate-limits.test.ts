import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../test/app.ts';
import { testDatabasePerFile } from '../test/database.ts';
import { uniqueSuffix } from '../test/factories.ts';

// Two apps on one database stand for two instances behind a load balancer: a client's
// requests count against one budget wherever they land.
const database = testDatabasePerFile();

/** A client address of its own, so files sharing a database never share a budget. */
const clientAddress = () =>
  `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;

const getCategories = (app: FastifyInstance, remoteAddress: string) =>
  app.inject({ url: '/api/v1/category', remoteAddress });

describe('rate limits shared by every instance', () => {
  it('counts one budget per client across instances for the whole API', async () => {
    const env = { RATE_LIMIT_MAX: '10' };
    const shared = { rateLimitScope: `cluster-${uniqueSuffix()}:` };
    const [first, second] = [
      await buildTestApp(database(), env, shared),
      await buildTestApp(database(), env, shared),
    ];
    const client = clientAddress();

    // Requests alternate between the instances, and each passes only with a unit of the
    // client's budget claimed in the shared database: exactly the limit gets through.
    let allowed = 0;
    for (let request = 0; request < 30; request += 1) {
      const app = request % 2 === 0 ? first : second;
      if ((await getCategories(app, client)).statusCode === 200) allowed += 1;
    }
    expect(allowed).toBe(10);

    for (const app of [first, second]) {
      const refused = await getCategories(app, client);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['x-ratelimit-limit']).toBe('10');
      expect(refused.json().message).toMatch(
        /^Too many requests, please try again in \d+ (seconds?|minutes?)$/,
      );
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Another client is not affected, and health probes are never limited.
    expect((await getCategories(second, clientAddress())).statusCode).toBe(200);
    expect(
      (await first.inject({ url: '/api/health/live', remoteAddress: client })).statusCode,
    ).toBe(200);
  });

  it('shares the stricter per-e-mail limits of sign-in routes', async () => {
    const shared = { rateLimitScope: `cluster-${uniqueSuffix()}:` };
    const [first, second] = [
      await buildTestApp(database(), {}, shared),
      await buildTestApp(database(), {}, shared),
    ];
    const email = `nobody-${uniqueSuffix()}@example.test`;
    const forgot = (app: FastifyInstance) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/auth/forgot-password',
        payload: { email },
        remoteAddress: clientAddress(),
      });

    for (const app of [first, second, first, second, first])
      expect((await forgot(app)).statusCode).toBe(200);
    for (const app of [second, first]) {
      const refused = await forgot(app);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({
        message: 'Too many attempts. Please try again in 15 minutes.',
        statusCode: 429,
        code: 'TOO_MANY_REQUESTS',
      });
    }
  });
});
