import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '../shared/messages.ts';
import { buildTestApp, testAppPerFile } from './test/app.ts';
import { testDatabasePerFile } from './test/database.ts';
import { bearerFor, createAdmin, createUser, type UserRow } from './test/factories.ts';
import { openApiOperations, type RegisteredRoute, registeredRoutes } from './test/openapi.ts';

const database = testDatabasePerFile();
const testApp = testAppPerFile(database);

/**
 * The only routes anyone may call without signing in, each with the reason. A route missing
 * from this list must refuse a request without a token: a new route is private by default,
 * and this test fails the day one is added without a guard.
 */
const PUBLIC_ROUTES: Record<string, string> = {
  'GET /api/health': 'load balancers and start-up checks',
  'GET /api/health/live': 'liveness probes (container health checks)',
  'GET /api/health/ready': 'readiness probes (load balancers)',
  'GET /api/docs': 'the API documentation',
  'GET /api/docs/': 'the API documentation',
  'GET /api/docs/static/index.html': 'the API documentation',
  'GET /api/docs/static/swagger-initializer.js': 'the API documentation',
  'GET /api/docs/*': 'the API documentation',
  'GET /api/docs/json': 'the API documentation',
  'GET /api/docs/yaml': 'the API documentation',
  'POST /api/v1/auth/register': 'signing up',
  'POST /api/v1/auth/login': 'signing in',
  'POST /api/v1/auth/resend-token': 'e-mail verification before sign-in',
  'POST /api/v1/auth/resend-token/email': 'e-mail verification before sign-in',
  'POST /api/v1/auth/verify-email': 'e-mail verification before sign-in',
  'GET /api/v1/auth/validate-user/:token': 'the link in the verification e-mail',
  'POST /api/v1/auth/forgot-password': 'password reset',
  'POST /api/v1/auth/reset-password': 'password reset (proved by the e-mailed code)',
  'GET /api/v1/auth/google': 'Google sign-in',
  'GET /api/v1/auth/google/callback': 'Google sign-in (proved by state and PKCE)',
  'GET /api/v1/settings': 'public settings the sign-up and top-up pages show',
  'GET /api/v1/payment/methods':
    'which payment methods run live or in the sandbox: every page, signed in or not, shows the SANDBOX banner',
  'GET /api/v1/category': 'game categories',
  'GET /api/v1/bank': 'the list of banks',
  'GET /api/v1/plan': 'the plans page',
  'GET /api/v1/game/:id/draw': "a draw's public proof, which anyone may re-check",
  'GET /api/v1/fairness/log': 'the public fairness log, which anyone may download and verify',
  'POST /api/v1/support': 'the public support form (signed-in or not), limited per address',
  'GET /api/v1/payment/callback/:method':
    'the provider returns the browser here; the payment is verified with the provider',
  'POST /api/v1/payment/webhook/:method': 'provider notifications, proved by their signature',
  'GET /api/v1/payment/sandbox/:method/:reference': 'the sandbox checkout (sandbox mode only)',
  'POST /api/v1/payment/sandbox/:method/:reference/pay': 'the sandbox checkout (sandbox mode only)',
  'POST /api/v1/payment/sandbox/:method/:reference/cancel':
    'the sandbox checkout (sandbox mode only)',
  'GET /api/v1/payment/sandbox/transfer':
    'the sandbox\'s "a transfer arrives" page (sandbox mode only)',
  'POST /api/v1/payment/sandbox/transfer':
    'the sandbox\'s "a transfer arrives" page (sandbox mode only)',
  'GET /uploads/avatars/:name': 'profile photos, shown on public leaderboards',
};

const isAdminRoute = (route: RegisteredRoute) => route.url.startsWith('/api/v1/admin/');
const key = (route: RegisteredRoute) => `${route.method} ${route.url}`;
/** The routes of the players' and the operators' scopes (src/server/api.ts). */
const isSignedInRoute = (route: RegisteredRoute) =>
  route.url.startsWith('/api/v1/') && !(key(route) in PUBLIC_ROUTES);

/** A concrete URL for a route pattern: well-formed values, so only the guard can refuse. */
function concreteUrl(url: string): string {
  return url
    .replaceAll(':id', '00000000-0000-4000-8000-000000000000')
    .replaceAll(':method', 'paystack')
    .replace(/:\w+/g, 'sample')
    .replace('*', 'sample');
}

/** Calls a route with the given headers, from an address of its own (no per-client limit). */
function caller(app: FastifyInstance, subnet: number) {
  let address = 0;
  return (route: RegisteredRoute, headers: Record<string, string>) => {
    address += 1;
    return app.inject({
      method: route.method as 'GET',
      url: concreteUrl(route.url),
      headers,
      payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
      remoteAddress: `10.${subnet}.${address >> 8}.${address & 255}`,
    });
  };
}

describe('route guards', () => {
  it('every non-public route refuses a request without a token, or with a forged one', async () => {
    // GET /metrics has a token of its own; set, so that route is held to the same answer (401).
    const app = await buildTestApp(database(), {
      METRICS_TOKEN: 'metrics-token-of-the-guard-test',
    });
    const routes = registeredRoutes(app);
    expect(routes.length).toBeGreaterThan(50);
    const registered = new Set(routes.map(key));
    // The list stays true: nothing in it that is not a route.
    expect(Object.keys(PUBLIC_ROUTES).filter((route) => !registered.has(route))).toEqual([]);

    const unguarded: string[] = [];
    let address = 0;
    for (const route of routes.filter((candidate) => !(key(candidate) in PUBLIC_ROUTES))) {
      for (const authorization of [undefined, 'Bearer not.a.token', 'Basic YWRtaW46YWRtaW4=']) {
        address += 1;
        const response = await app.inject({
          method: route.method as 'GET',
          url: concreteUrl(route.url),
          headers: authorization ? { authorization } : {},
          payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
          remoteAddress: `10.14.${address >> 8}.${address & 255}`,
        });
        if (response.statusCode !== 401)
          unguarded.push(`${key(route)} (${authorization ?? 'no token'}) → ${response.statusCode}`);
        else
          expect(response.json()).toEqual({
            statusCode: 401,
            code: 'UNAUTHORIZED',
            message: 'Unauthorized',
          });
      }
    }
    expect(unguarded, unguarded.join('\n')).toEqual([]);
  });

  it('every operator route refuses a player, and none is public', async () => {
    const app = testApp();
    const player = await bearerFor(app, await createUser(app.db));
    const adminRoutes = registeredRoutes(app).filter(isAdminRoute);
    expect(adminRoutes.length).toBeGreaterThan(15);
    expect(adminRoutes.map(key).filter((route) => route in PUBLIC_ROUTES)).toEqual([]);

    const open: string[] = [];
    let address = 0;
    for (const route of adminRoutes) {
      address += 1;
      const response = await app.inject({
        method: route.method as 'GET',
        url: concreteUrl(route.url),
        headers: player,
        payload: route.method === 'GET' ? undefined : {},
        remoteAddress: `10.15.${address >> 8}.${address & 255}`,
      });
      if (response.statusCode !== 403) open.push(`${key(route)} → ${response.statusCode}`);
      else
        expect(response.json()).toEqual({
          statusCode: 403,
          code: 'OPERATORS_ONLY',
          message: 'Only operators can do this',
        });
    }
    expect(open, open.join('\n')).toEqual([]);
  });

  it('every signed-in route refuses a suspended account, a deleted one and a signed-out session', async () => {
    const app = testApp();
    const suspendedPlayer = await bearerFor(
      app,
      await createUser(app.db, { suspendedAt: new Date() }),
    );
    const suspendedAdmin = await bearerFor(
      app,
      await createUser(app.db, { role: 'admin', suspendedAt: new Date() }),
    );
    const deleted = await bearerFor(app, await createUser(app.db, { deletedAt: new Date() }));
    const signedOutUser = await createUser(app.db);
    const signedOut = await bearerFor(app, signedOutUser);
    await app.tokens.revokeAllSessions(signedOutUser.id);
    const routes = registeredRoutes(app).filter(isSignedInRoute);
    expect(routes.length).toBeGreaterThan(50);

    const call = caller(app, 16);
    const admitted: string[] = [];
    for (const route of routes) {
      const refusals = [
        {
          who: 'a suspended player',
          headers: suspendedPlayer,
          message: ACCOUNT_MESSAGES.suspended,
        },
        {
          who: 'a suspended operator',
          headers: suspendedAdmin,
          message: ACCOUNT_MESSAGES.suspended,
        },
        { who: 'a deleted account', headers: deleted, message: 'Unauthorized' },
        { who: 'a signed-out session', headers: signedOut, message: 'Unauthorized' },
      ];
      for (const { who, headers, message } of refusals) {
        const response = await call(route, headers);
        if (response.statusCode !== 401)
          admitted.push(`${key(route)} (${who}) → ${response.statusCode}`);
        else expect(response.json()).toEqual({ statusCode: 401, code: 'UNAUTHORIZED', message });
      }
    }
    expect(admitted, admitted.join('\n')).toEqual([]);
  });

  it('every player route admits a signed-in player and an operator; every operator route an operator', async () => {
    const app = testApp();
    const call = caller(app, 17);
    const refused: string[] = [];
    for (const route of registeredRoutes(app).filter(isSignedInRoute)) {
      // Fresh accounts per route: signing out (everywhere) is among the routes called.
      const callers: Array<[who: string, account: UserRow]> = [
        ['an operator', await createAdmin(app.db)],
      ];
      if (!isAdminRoute(route)) callers.push(['a player', await createUser(app.db)]);
      for (const [who, account] of callers) {
        // The body is empty and the ids name nothing: whatever the answer, it is not the guard's.
        const response = await call(route, await bearerFor(app, account));
        const code = response.headers['content-type']?.toString().includes('json')
          ? response.json<{ code?: string }>().code
          : undefined;
        if (response.statusCode === 401 || code === 'OPERATORS_ONLY')
          refused.push(`${key(route)} (${who}) → ${response.statusCode} ${code}`);
      }
    }
    expect(refused, refused.join('\n')).toEqual([]);
  });

  it('the API document marks exactly the signed-in routes as needing a bearer token', async () => {
    const app = testApp();
    await app.ready();
    const misdocumented = openApiOperations(app)
      .filter((operation) => operation.url.startsWith('/api/v1/'))
      .filter((operation) => operation.secured === key(operation) in PUBLIC_ROUTES)
      .map((operation) => `${key(operation)} (secured: ${operation.secured})`);
    expect(misdocumented, misdocumented.join('\n')).toEqual([]);
  });
});
