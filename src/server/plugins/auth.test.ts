import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { decodeJwt, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { plans, users } from '../db/schema.ts';
import { buildTestApp, TEST_JWT_SECRET, testAppPerFile } from '../test/app.ts';
import { eventually, withoutNotifications } from '../test/cluster.ts';
import { testDatabasePerFile } from '../test/database.ts';
import { bearerFor, createUser, fundWallet, testClock, type UserRow } from '../test/factories.ts';
import { ACCOUNT_STATE_TTL_MS } from './auth.ts';

const database = testDatabasePerFile();
/** One app for the tests that need no environment or clock of their own. */
const fileApp = testAppPerFile(database);

async function bumpTokenVersion(userId: string) {
  await database()
    .db.update(users)
    .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
    .where(eq(users.id, userId));
}

const PROTECTED = ['/api/v1/notification', '/api/v1/user'] as const;
const UNAUTHORIZED = { message: 'Unauthorized', statusCode: 401, code: 'UNAUTHORIZED' };

/**
 * A token shaped like the server's own, with parts the test controls. It names a live session
 * of the user (opened by the server's own signing), so a refusal is about the part broken.
 */
async function craftToken(
  app: FastifyInstance,
  user: Pick<UserRow, 'id' | 'tokenVersion'>,
  options: { secret?: string; expiresAt?: number; issuer?: string; subject?: string | null } = {},
) {
  const { sid } = decodeJwt(await app.tokens.sign(user));
  const now = Math.floor(Date.now() / 1000);
  let jwt = new SignJWT({ ver: user.tokenVersion, sid })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(options.issuer ?? 'pluckers')
    .setIssuedAt(now - 7200)
    .setExpirationTime(options.expiresAt ?? now + 3600);
  if (options.subject !== null) jwt = jwt.setSubject(options.subject ?? user.id);
  return jwt.sign(new TextEncoder().encode(options.secret ?? TEST_JWT_SECRET));
}

async function expectUnauthorized(
  app: FastifyInstance,
  headers: Record<string, string>,
  body: { message: string; statusCode: number; code: string } = UNAUTHORIZED,
) {
  for (const url of PROTECTED) {
    const response = await app.inject({ url, headers });
    expect(response.statusCode, url).toBe(401);
    expect(response.headers['content-type'], url).toMatch(/^application\/json/);
    expect(response.json(), url).toEqual(body);
  }
}

describe('bearer authentication', () => {
  it('lets a valid token through on every protected route', async () => {
    const app = fileApp();
    const user = await createUser(app.db);
    const headers = await bearerFor(app, user);
    for (const url of PROTECTED) {
      const response = await app.inject({ url, headers });
      expect(response.statusCode, url).toBe(200);
    }
    // A token crafted the same way the server signs is accepted too, so the negative cases
    // below differ from a good token only in the part they break.
    await expect(
      app.inject({
        url: '/api/v1/user',
        headers: { authorization: `Bearer ${await craftToken(app, user)}` },
      }),
    ).resolves.toMatchObject({ statusCode: 200 });
  });

  it('answers 401 without a token', async () => {
    const app = fileApp();
    await expectUnauthorized(app, {});
  });

  it('answers 401 for a malformed authorization header', async () => {
    const app = fileApp();
    const user = await createUser(app.db);
    const { authorization } = await bearerFor(app, user);
    const token = authorization.slice('Bearer '.length);
    for (const header of [
      'Bearer',
      'Bearer ',
      `Basic ${token}`,
      token,
      `Bearer ${token} extra`,
      'Bearer not.a.jwt',
      'Bearer abc',
      `Bearer ${token.slice(0, -4)}`,
    ]) {
      await expectUnauthorized(app, { authorization: header });
    }
  });

  it('answers 401 for a token signed with another secret', async () => {
    const app = fileApp();
    const user = await createUser(app.db);
    const token = await craftToken(app, user, {
      secret: 'another-secret-that-is-also-long-enough-to-sign',
    });
    await expectUnauthorized(app, { authorization: `Bearer ${token}` });
  });

  it('answers 401 for an expired token', async () => {
    const app = fileApp();
    const user = await createUser(app.db);
    const token = await craftToken(app, user, { expiresAt: Math.floor(Date.now() / 1000) - 60 });
    await expectUnauthorized(app, { authorization: `Bearer ${token}` });
  });

  it('answers 401 for a token of another issuer, without a subject, or for an unknown user', async () => {
    const app = fileApp();
    const user = await createUser(app.db);
    const tokens = [
      await craftToken(app, user, { issuer: 'someone-else' }),
      await craftToken(app, user, { subject: null }),
      await craftToken(app, user, { subject: 'not-a-uuid' }),
      await craftToken(app, user, { subject: '00000000-0000-4000-8000-000000000000' }),
    ];
    for (const token of tokens) await expectUnauthorized(app, { authorization: `Bearer ${token}` });
  });

  it('answers 401 for an unsigned (alg none) token', async () => {
    const app = fileApp();
    const user = await createUser(app.db);
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const token = `${encode({ alg: 'none', typ: 'JWT' })}.${encode({ sub: user.id, ver: 0, iss: 'pluckers', exp: now + 3600 })}.`;
    await expectUnauthorized(app, { authorization: `Bearer ${token}` });
  });

  it('answers 401 at once when this server revokes a token (token version bumped)', async () => {
    const app = fileApp();
    const user = await createUser(app.db);
    const headers = await bearerFor(app, user);
    expect((await app.inject({ url: '/api/v1/user', headers })).statusCode).toBe(200);

    await bumpTokenVersion(user.id);
    app.tokens.forgetUser(user.id);

    await expectUnauthorized(app, headers);
    // A token for the new version works.
    const fresh = await bearerFor(app, { ...user, tokenVersion: user.tokenVersion + 1 });
    expect((await app.inject({ url: '/api/v1/user', headers: fresh })).statusCode).toBe(200);
  });

  it('honours a revocation made elsewhere (another instance, a script) as soon as the database tells it', async () => {
    const app = fileApp();
    const user = await createUser(app.db);
    const headers = await bearerFor(app, user);
    expect((await app.inject({ url: '/api/v1/user', headers })).statusCode).toBe(200);

    // Straight to the database, as another server process or `npm run admin` would.
    await bumpTokenVersion(user.id);
    await eventually(() => expectUnauthorized(app, headers), 100);
  });

  it('honours a revocation whose notification was lost within ACCOUNT_STATE_TTL_MS', async () => {
    const clock = testClock();
    const app = await buildTestApp(database(), {}, { clock });
    const user = await createUser(app.db);
    const headers = await bearerFor(app, user);
    expect((await app.inject({ url: '/api/v1/user', headers })).statusCode).toBe(200);

    await withoutNotifications(app.db, (tx) =>
      tx
        .update(users)
        .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
        .where(eq(users.id, user.id)),
    );
    expect((await app.inject({ url: '/api/v1/user', headers })).statusCode).toBe(200);

    clock.advance(ACCOUNT_STATE_TTL_MS);
    await expectUnauthorized(app, headers);
  });

  it('answers 401 for a token that expired by the app clock', async () => {
    const clock = testClock();
    const app = await buildTestApp(database(), {}, { clock });
    const user = await createUser(app.db);
    const headers = { authorization: `Bearer ${await app.tokens.sign(user)}` };
    expect((await app.inject({ url: '/api/v1/user', headers })).statusCode).toBe(200);

    clock.advance(7 * 24 * 3_600_000 - 1_000);
    expect((await app.inject({ url: '/api/v1/user', headers })).statusCode).toBe(200);
    clock.advance(2_000);
    await expectUnauthorized(app, headers);
  });

  it('answers 401 once the account is deleted', async () => {
    const app = fileApp();
    const user = await createUser(app.db);
    const headers = await bearerFor(app, user);
    await app.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, user.id));
    await expectUnauthorized(app, headers);
  });

  it('answers 401 with a suspension message for a suspended account', async () => {
    const app = fileApp();
    const user = await createUser(app.db, { suspendedAt: new Date(), suspendedReason: 'abuse' });
    const headers = await bearerFor(app, user);
    await expectUnauthorized(app, headers, {
      message: 'Your account is suspended. Contact support.',
      statusCode: 401,
      code: 'UNAUTHORIZED',
    });
  });
});

describe('GET /api/v1/user', () => {
  it('returns the signed-in player with the plucker_ prefix and naira amounts', async () => {
    const app = fileApp();
    const user = await createUser(app.db, { totalWinningAmount: 50_000n, points: 120, level: 2 });
    // Money only ever arrives through the ledger, so other tests' ledger checks stay true.
    await fundWallet(app.db, user.id, 123_456n);

    const response = await app.inject({ url: '/api/v1/user', headers: await bearerFor(app, user) });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      data: {
        id: user.id,
        username: `plucker_${user.handle}`,
        fullname: user.fullname,
        email: user.email,
        phoneNumber: user.phoneNumber,
        planID: null,
        planExpiresAt: null,
        isVerified: false,
        role: 'player',
        accountBalance: 1234.56,
        level: 2,
        points: 120,
        totalGamesPlayed: 0,
        totalGamesWon: 0,
        totalWinningAmount: 500,
        profilePhoto: null,
        hasSetPassword: false,
        ageConfirmed: true,
        bankAccount: null,
        pendingEmail: null,
      },
    });
  });

  it('drops the prefix and shows the tick for a plan with the verified badge', async () => {
    const app = fileApp();
    const [vip] = await app.db.select().from(plans).where(eq(plans.planName, 'VIP'));
    if (!vip) throw new Error('the VIP plan was not seeded');
    const expiresAt = new Date(Date.now() + 7 * 86_400_000);
    const user = await createUser(app.db, { planId: vip.id, planExpiresAt: expiresAt });

    const response = await app.inject({ url: '/api/v1/user', headers: await bearerFor(app, user) });

    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      username: user.handle,
      isVerified: true,
      planID: vip.id,
      planExpiresAt: expiresAt.toISOString(),
    });
  });

  it('never sends the password hash or the token version', async () => {
    const app = fileApp();
    const user = await createUser(app.db, {
      passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
    });
    const response = await app.inject({ url: '/api/v1/user', headers: await bearerFor(app, user) });
    expect(response.json().data.hasSetPassword).toBe(true);
    expect(response.body).not.toContain('argon2');
    expect(response.body).not.toMatch(/passwordHash|tokenVersion/);
  });
});
