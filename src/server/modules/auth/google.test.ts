import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_ERRORS } from '../../../shared/login-errors.ts';
import { exclusionMessage } from '../../../shared/responsible-play.ts';
import { oauthStates, playExclusions, users } from '../../db/schema.ts';
import { buildTestApp, testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bearerFor, createUser, uniqueSuffix } from '../../test/factories.ts';
import { type OidcAccount, startOidcProvider, type TestOidcProvider } from '../../test/oidc.ts';
import { testPasswordHash } from '../../test/passwords.ts';
import { startBreak } from '../responsible-play/test-fixtures.ts';

const database = testDatabasePerFile();
const PUBLIC_URL = 'http://pluckers.test';
const CALLBACK_PATH = '/api/v1/auth/google/callback';

let provider: TestOidcProvider;
beforeAll(async () => {
  provider = await startOidcProvider({ publicUrl: PUBLIC_URL });
});
afterAll(async () => {
  await provider?.close();
});

/** One app for the file on the provider (made in beforeAll above). */
const googleApp = testAppPerFile(database, () => provider.env);

function googleAccount(overrides: Partial<OidcAccount> = {}): OidcAccount {
  const suffix = uniqueSuffix();
  const account = {
    sub: `google-${suffix}`,
    email: `grace.hopper.${suffix}@gmail.test`,
    email_verified: true,
    name: 'Grace Hopper',
    ...overrides,
  };
  provider.setAccount(account);
  return account;
}

/** Cookies a browser would send back: name=value of each Set-Cookie. */
function cookiesFrom(response: { headers: Record<string, unknown> }): string {
  const header = response.headers['set-cookie'];
  const lines = Array.isArray(header) ? header : header ? [String(header)] : [];
  return lines.map((line: string) => line.split(';')[0]).join('; ');
}

/**
 * The whole browser round trip: the app's /auth/google, the provider's pages, then the app's
 * callback. Answers where the callback finally sends the browser.
 */
async function googleLogin(
  app: FastifyInstance,
  as: { sub: string } | { deny: true },
): Promise<string> {
  const start = await app.inject({ url: '/api/v1/auth/google' });
  expect(start.statusCode).toBe(302);
  const authorizationUrl = String(start.headers.location);
  expect(authorizationUrl.startsWith(`${provider.issuer}/`)).toBe(true);
  const back = await provider.authorize(authorizationUrl, as);
  expect(`${back.origin}${back.pathname}`).toBe(`${PUBLIC_URL}${CALLBACK_PATH}`);
  const callback = await app.inject({
    url: `${back.pathname}${back.search}`,
    headers: { cookie: cookiesFrom(start) },
  });
  expect(callback.statusCode).toBe(302);
  return String(callback.headers.location);
}

/** Follows `/auth/validate/<token>` the way the web app does: token → access token → user. */
async function signedInUser(app: FastifyInstance, location: string) {
  const token = /^\/auth\/validate\/([A-Za-z0-9_-]+)$/.exec(location)?.[1];
  expect(token, `redirected to ${location}`).toBeTruthy();
  const validated = await app.inject({ url: `/api/v1/auth/validate-user/${token}` });
  expect(validated.statusCode).toBe(200);
  const accessToken: string = validated.json().data.access_token;
  const me = await app.inject({
    url: '/api/v1/user',
    headers: { authorization: `Bearer ${accessToken}` },
  });
  expect(me.statusCode).toBe(200);
  return { token, accessToken, user: me.json().data };
}

/**
 * The /login redirect whose banner reads `text`: the server sends only the code of one of the
 * login page's own texts, never words of its own.
 */
function loginError(text: string): string {
  const code = Object.entries(LOGIN_ERRORS).find(([, known]) => known === text)?.[0];
  if (!code) throw new Error(`the login page has no text ${JSON.stringify(text)}`);
  return `/login?error=${code}`;
}

describe('Google login', () => {
  it('sends the player to the provider with PKCE (S256), state, nonce and the callback URL', async () => {
    const app = googleApp();
    const start = await app.inject({ url: '/api/v1/auth/google' });
    const url = new URL(String(start.headers.location));
    expect(url.searchParams.get('client_id')).toBe(provider.clientId);
    expect(url.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}${CALLBACK_PATH}`);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('scope')?.split(' ').sort()).toEqual([
      'email',
      'openid',
      'profile',
    ]);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
    // The state is also handed to this browser, to be shown again at the callback.
    const cookie = String(start.headers['set-cookie']);
    expect(cookie).toContain(`pluckers_google_state=${url.searchParams.get('state')}`);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\/api\/v1\/auth\/google/);
    // The verifier stays on the server.
    const [pending] = await app.db
      .select()
      .from(oauthStates)
      .where(eq(oauthStates.state, url.searchParams.get('state') ?? ''));
    expect(pending?.codeVerifier).toBeTruthy();
    expect(url.search).not.toContain(pending?.codeVerifier ?? 'missing');
  });

  it("never signs in to an operator's account, by its e-mail or by a linked identity", async () => {
    const app = googleApp();
    const byEmail = googleAccount();
    const operator = await createUser(app.db, {
      role: 'admin',
      email: byEmail.email ?? '',
      passwordHash: await testPasswordHash('operator-console-password'),
    });
    const refusal = loginError(
      'Operator accounts sign in with their password and authenticator code',
    );
    expect(await googleLogin(app, { sub: byEmail.sub })).toBe(refusal);
    // Nothing was linked or changed on the operator's account.
    const [after] = await app.db.select().from(users).where(eq(users.id, operator.id));
    expect(after?.googleSub).toBeNull();
    expect(after?.tokenVersion).toBe(operator.tokenVersion);
    expect(after?.passwordHash).toBe(operator.passwordHash);

    // A player linked to Google and later made an operator is refused as well.
    const linked = googleAccount();
    await createUser(app.db, { role: 'admin', email: linked.email ?? '', googleSub: linked.sub });
    expect(await googleLogin(app, { sub: linked.sub })).toBe(refusal);
  });

  it('creates a verified, password-less account for a new Google user', async () => {
    const app = googleApp();
    const account = googleAccount();

    const location = await googleLogin(app, { sub: account.sub });
    const { user, token } = await signedInUser(app, location);

    expect(user).toMatchObject({
      email: account.email,
      fullname: 'Grace Hopper',
      hasSetPassword: false,
      role: 'player',
    });
    const expectedHandle = (account.email ?? '').split('@')[0]?.replace(/\./g, '_').slice(0, 14);
    expect(user.username).toBe(`plucker_${expectedHandle}`);
    const [row] = await app.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.googleSub).toBe(account.sub);
    expect(row?.emailVerifiedAt).toBeInstanceOf(Date);
    expect(row?.passwordHash).toBeNull();

    // The hand-off link works once.
    const replay = await app.inject({ url: `/api/v1/auth/validate-user/${token}` });
    expect(replay.statusCode).toBe(400);
  });

  it('logs a returning Google user into the same account', async () => {
    const app = googleApp();
    const account = googleAccount();
    const first = await signedInUser(app, await googleLogin(app, { sub: account.sub }));
    // Even after the Google address changed: the subject is what identifies the account.
    provider.setAccount({ ...account, email: `renamed-${uniqueSuffix()}@gmail.test` });
    const second = await signedInUser(app, await googleLogin(app, { sub: account.sub }));
    expect(second.user.id).toBe(first.user.id);
    expect(await app.db.$count(users, eq(users.googleSub, account.sub))).toBe(1);
  });

  it('links an existing password account by its verified e-mail, keeping the password', async () => {
    const app = googleApp();
    const password = 'Linked-Account-2024';
    const existing = await createUser(app.db, { passwordHash: await testPasswordHash(password) });
    const account = googleAccount({ email: existing.email.toUpperCase() });

    const { user } = await signedInUser(app, await googleLogin(app, { sub: account.sub }));

    expect(user.id).toBe(existing.id);
    expect(user.hasSetPassword).toBe(true);
    const [row] = await app.db.select().from(users).where(eq(users.id, existing.id));
    expect(row?.googleSub).toBe(account.sub);
    const login = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: existing.email, password },
    });
    expect(login.statusCode).toBe(200);
  });

  it('takes over an unverified sign-up with that e-mail: its password no longer works', async () => {
    const app = googleApp();
    const password = 'Squatter-Password-1';
    // Someone signed up with this address without ever proving it.
    const squatted = await createUser(app.db, {
      passwordHash: await testPasswordHash(password),
      emailVerifiedAt: null,
    });
    const account = googleAccount({ email: squatted.email });

    const squatterSession = { authorization: `Bearer ${await app.tokens.sign(squatted)}` };
    expect((await app.inject({ url: '/api/v1/user', headers: squatterSession })).statusCode).toBe(
      200,
    );

    const { user } = await signedInUser(app, await googleLogin(app, { sub: account.sub }));

    expect(user.id).toBe(squatted.id);
    expect(user.hasSetPassword).toBe(false);
    expect((await app.inject({ url: '/api/v1/user', headers: squatterSession })).statusCode).toBe(
      401,
    );
    const login = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: squatted.email, password },
    });
    expect(login.statusCode).toBe(400);
  });

  it('does not move an account linked to one Google identity to another with the same e-mail', async () => {
    const app = googleApp();
    const first = googleAccount();
    const owner = await signedInUser(app, await googleLogin(app, { sub: first.sub }));
    const second = googleAccount({ email: first.email });

    const location = await googleLogin(app, { sub: second.sub });

    expect(location).toBe(
      loginError('This e-mail is already used by an account linked to another Google account'),
    );
    const [row] = await app.db.select().from(users).where(eq(users.id, owner.user.id));
    expect(row?.googleSub).toBe(first.sub);
  });

  it('gives each new Google user a free handle made from the e-mail', async () => {
    const app = googleApp();
    const local = `sam.${uniqueSuffix()}`;
    const one = googleAccount({ email: `${local}@one.test`, name: '' });
    const two = googleAccount({ email: `${local}@two.test`, name: 'Sam Two' });

    const first = await signedInUser(app, await googleLogin(app, { sub: one.sub }));
    const second = await signedInUser(app, await googleLogin(app, { sub: two.sub }));

    const base = local.replace('.', '_').slice(0, 14);
    expect(first.user.username).toBe(`plucker_${base}`);
    expect(second.user.username).toMatch(new RegExp(`^plucker_${base}_[0-9a-f]{4}$`));
    // Without a name from Google, the e-mail's local part stands in.
    expect(first.user.fullname).toBe(local);
    expect(second.user.fullname).toBe('Sam Two');
  });

  it('refuses an e-mail Google has not verified, creating nothing', async () => {
    const app = googleApp();
    const account = googleAccount({ email_verified: false });

    const location = await googleLogin(app, { sub: account.sub });

    expect(location).toBe(loginError('Your Google e-mail address is not verified'));
    expect(await app.db.$count(users, eq(users.googleSub, account.sub))).toBe(0);
  });

  it('sends the player back to /login when they cancel at the provider', async () => {
    const app = googleApp();
    const location = await googleLogin(app, { deny: true });
    expect(location).toBe(loginError('Google login was cancelled'));

    const failed = await app.inject({ url: `${CALLBACK_PATH}?error=server_error&state=x` });
    expect(failed.headers.location).toBe(loginError('Google login failed, please try again'));
  });

  it('refuses a callback that did not start in this browser, and a replayed one', async () => {
    const app = googleApp();
    const account = googleAccount();
    const start = await app.inject({ url: '/api/v1/auth/google' });
    const back = await provider.authorize(String(start.headers.location), { sub: account.sub });
    const callbackUrl = `${back.pathname}${back.search}`;

    // A link crafted by someone else (login CSRF): no cookie from /auth/google.
    const forged = await app.inject({ url: callbackUrl });
    expect(forged.statusCode).toBe(302);
    expect(String(forged.headers.location)).toBe(
      loginError('Google login expired, please try again'),
    );

    // Nor with the cookie of a login started elsewhere.
    const otherStart = await app.inject({ url: '/api/v1/auth/google' });
    const mixed = await app.inject({
      url: callbackUrl,
      headers: { cookie: cookiesFrom(otherStart) },
    });
    expect(mixed.headers.location).toBe(loginError('Google login expired, please try again'));

    const genuine = await app.inject({
      url: callbackUrl,
      headers: { cookie: cookiesFrom(start) },
    });
    expect(String(genuine.headers.location)).toMatch(/^\/auth\/validate\//);

    const replayed = await app.inject({
      url: callbackUrl,
      headers: { cookie: cookiesFrom(start) },
    });
    expect(String(replayed.headers.location)).toBe(
      loginError('Google login expired, please try again'),
    );
    expect(await app.db.$count(users, eq(users.googleSub, account.sub))).toBe(1);
  });

  it('redirects to /login with a reason when the provider cannot be reached', async () => {
    const app = await buildTestApp(database(), {
      ...provider.env,
      // A port nothing listens on.
      GOOGLE_ISSUER: 'http://127.0.0.1:9',
    });
    const start = await app.inject({ url: '/api/v1/auth/google' });
    expect(start.statusCode).toBe(302);
    expect(start.headers.location).toBe(loginError('Google login is not available right now'));
  });
});

describe('Google login and a running break', () => {
  it('holds a new Google account with the same mailbox written another way to the break', async () => {
    const app = googleApp();
    const suffix = uniqueSuffix();
    const ada = await createUser(app.db, { email: `ada.obi.${suffix}@gmail.com` });
    await startBreak(app, await bearerFor(app, ada));
    const [exclusion] = await app.db
      .select()
      .from(playExclusions)
      .where(eq(playExclusions.userId, ada.id));
    if (!exclusion) throw new Error('the break was not started');

    // Another Google account, its address the same Gmail mailbox: a new Pluckers account.
    const account = googleAccount({ email: `AdaObi.${suffix}@googlemail.com`, name: 'Ada Obi' });
    const { user, accessToken } = await signedInUser(app, await googleLogin(app, account));
    expect(user.id).not.toBe(ada.id);
    const headers = { authorization: `Bearer ${accessToken}` };
    const confirmed = await app.inject({
      method: 'POST',
      url: '/api/v1/user/confirm-age',
      headers,
      payload: { ageConfirmed: true },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const topUp = await app.inject({
      method: 'POST',
      url: '/api/v1/payment/paystack',
      headers,
      payload: { amount: 1000 },
    });
    expect(topUp.json()).toEqual({
      statusCode: 403,
      code: 'PLAY_PAUSED',
      message: exclusionMessage('timeout', exclusion.endsAt),
    });
  });

  it('holds the same Google account under another address after the account on a break was deleted', async () => {
    const app = googleApp();
    const password = 'Delete-Me-2026!';
    const first = googleAccount({ name: 'Ada Obi' });
    const ada = await createUser(app.db, {
      email: first.email,
      googleSub: first.sub,
      passwordHash: await testPasswordHash(password),
    });
    const adaHeaders = await bearerFor(app, ada);
    await startBreak(app, adaHeaders);
    const [exclusion] = await app.db
      .select()
      .from(playExclusions)
      .where(eq(playExclusions.userId, ada.id));
    if (!exclusion) throw new Error('the break was not started');
    const deleted = await app.inject({
      method: 'DELETE',
      url: '/api/v1/user',
      headers: adaHeaders,
      payload: { password },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);

    // The same Google account (its subject), its address since changed to another mailbox.
    const again = googleAccount({
      sub: first.sub,
      email: `ada.new.${uniqueSuffix()}@example.test`,
      name: 'Ada Obi',
    });
    const { user, accessToken } = await signedInUser(app, await googleLogin(app, again));
    expect(user.id).not.toBe(ada.id);
    const headers = { authorization: `Bearer ${accessToken}` };
    await app.inject({
      method: 'POST',
      url: '/api/v1/user/confirm-age',
      headers,
      payload: { ageConfirmed: true },
    });
    const topUp = await app.inject({
      method: 'POST',
      url: '/api/v1/payment/paystack',
      headers,
      payload: { amount: 1000 },
    });
    expect(topUp.json()).toEqual({
      statusCode: 403,
      code: 'PLAY_PAUSED',
      message: exclusionMessage('timeout', exclusion.endsAt),
    });
    const [bound] = await app.db
      .select()
      .from(playExclusions)
      .where(eq(playExclusions.userId, user.id));
    expect(bound?.boundBy).toEqual(['google']);
  });
});

describe('Google login when not configured', () => {
  it('redirects both steps to /login with a reason', async () => {
    const app = await buildTestApp(database(), { PUBLIC_URL });
    for (const url of ['/api/v1/auth/google', `${CALLBACK_PATH}?code=abc&state=def`]) {
      const response = await app.inject({ url });
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe(loginError('Google login is not available right now'));
    }
  });
});
