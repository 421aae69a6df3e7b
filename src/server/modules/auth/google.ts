import { randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import * as oidc from 'openid-client';
import { LOGIN_ERRORS, type LoginErrorCode } from '../../../shared/login-errors.ts';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { oauthStates, users } from '../../db/schema.ts';
import { bindPerson } from '../users/break-binding.ts';
import { createOneTimeToken } from './one-time-tokens.ts';

export interface GoogleSettings {
  clientId: string;
  clientSecret: string;
  issuer: string;
}

const STATE_TTL_MS = 10 * 60_000;

/** A sign-in that ends on /login: the code the login page shows a text for. */
export class GoogleLoginError extends Error {
  constructor(readonly code: LoginErrorCode) {
    super(LOGIN_ERRORS[code]);
  }
}

function sameString(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Local providers (tests, development) speak plain HTTP on loopback; real Google never does. */
function isLoopback(issuer: URL): boolean {
  return (
    issuer.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(issuer.hostname)
  );
}

export function createGoogleClient(settings: GoogleSettings, callbackUrl: string) {
  let configuration: Promise<oidc.Configuration> | undefined;

  function discover(): Promise<oidc.Configuration> {
    const issuer = new URL(settings.issuer);
    configuration ??= oidc
      .discovery(issuer, settings.clientId, settings.clientSecret, undefined, {
        execute: isLoopback(issuer) ? [oidc.allowInsecureRequests] : [],
        timeout: 10,
      })
      .catch((error: unknown) => {
        configuration = undefined; // try discovery again on the next login
        throw error;
      });
    return configuration;
  }

  return {
    /**
     * The provider's authorisation URL, with PKCE, state and nonce remembered server-side. The
     * caller also binds `state` to the browser (a cookie), so a callback link made by someone
     * else cannot log this browser into their account.
     */
    async authorizationUrl(db: Database, now: Date): Promise<{ url: string; state: string }> {
      const config = await discover();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      await db
        .delete(oauthStates)
        .where(lt(oauthStates.createdAt, new Date(now.getTime() - STATE_TTL_MS)));
      await db.insert(oauthStates).values({ state, nonce, codeVerifier, createdAt: now });
      const url = oidc
        .buildAuthorizationUrl(config, {
          redirect_uri: callbackUrl,
          scope: 'openid email profile',
          response_type: 'code',
          state,
          nonce,
          code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
          code_challenge_method: 'S256',
          prompt: 'select_account',
        })
        .toString();
      return { url, state };
    },

    /**
     * Finishes the code flow: the account it logs in (found, linked or created) and a one-time
     * token for /auth/validate/:token. `browserState` is the state this browser was given when
     * it started (its cookie).
     */
    async complete(
      db: Database,
      currentUrl: URL,
      now: Date,
      browserState: string | undefined,
    ): Promise<{ userId: string; oneTimeToken: string }> {
      const providerError = currentUrl.searchParams.get('error');
      if (providerError)
        throw new GoogleLoginError(
          providerError === 'access_denied' ? 'google_cancelled' : 'google_failed',
        );
      const state = currentUrl.searchParams.get('state');
      if (!state) throw new GoogleLoginError('google_failed');
      // Checked before the state is used up, so a forged link cannot spoil the real login.
      if (!browserState || !sameString(browserState, state)) {
        throw new GoogleLoginError('google_expired');
      }
      const [pending] = await db
        .delete(oauthStates)
        .where(eq(oauthStates.state, state))
        .returning();
      if (!pending || pending.createdAt.getTime() + STATE_TTL_MS < now.getTime()) {
        throw new GoogleLoginError('google_expired');
      }
      const config = await discover();
      const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new GoogleLoginError('google_failed');
      const email = typeof claims.email === 'string' ? claims.email.toLowerCase() : null;
      if (!email || claims.email_verified !== true) {
        throw new GoogleLoginError('google_email_unverified');
      }
      const name =
        typeof claims.name === 'string' && claims.name.trim()
          ? claims.name.trim()
          : (email.split('@')[0] ?? email);
      const userId = await findOrCreateGoogleUser(db, { sub: claims.sub, email, name }, now);
      // A Google account (or a Gmail address written another way) of a player on a break.
      await bindPerson(db, userId, now);
      return { userId, oneTimeToken: await createOneTimeToken(db, userId, 'login', now) };
    },
  };
}

export type GoogleClient = ReturnType<typeof createGoogleClient>;

const OPERATOR_REFUSAL: LoginErrorCode = 'google_operator';

function handleBase(email: string): string {
  const local = (email.split('@')[0] ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, 14);
  return local.length >= 3 ? local : `${local}pluck`.slice(0, 14);
}

async function findOrCreateGoogleUser(
  db: Database,
  identity: { sub: string; email: string; name: string },
  now: Date,
): Promise<string> {
  const [linked] = await db
    .select({ id: users.id, deletedAt: users.deletedAt, role: users.role })
    .from(users)
    .where(eq(users.googleSub, identity.sub))
    .limit(1);
  if (linked && !linked.deletedAt) {
    if (linked.role === 'admin') throw new GoogleLoginError(OPERATOR_REFUSAL);
    return linked.id;
  }
  // An operator's account opens with its password and authenticator only: a Google identity
  // carrying the operator's e-mail (a lookalike workspace, a recycled address) neither signs in
  // nor links, and leaves the account as it was.
  const [operator] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(sql`lower(${users.email})`, identity.email), eq(users.role, 'admin')))
    .limit(1);
  if (operator) throw new GoogleLoginError(OPERATOR_REFUSAL);

  // Google vouches for the address, so an account with that e-mail is the same person. If that
  // account never proved the address, whoever chose its password may not be that person (a
  // sign-up squatting someone else's e-mail): the password goes, and with it any session.
  // (SET expressions read the row as it was, so `email_verified_at is null` means "was".)
  const unproven = sql`${users.emailVerifiedAt} is null`;
  const [byEmail] = await db
    .update(users)
    .set({
      googleSub: identity.sub,
      emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now.toISOString()}::timestamptz)`,
      passwordHash: sql`case when ${unproven} then null else ${users.passwordHash} end`,
      tokenVersion: sql`case when ${unproven} then ${users.tokenVersion} + 1 else ${users.tokenVersion} end`,
    })
    .where(
      and(
        eq(sql`lower(${users.email})`, identity.email),
        isNull(users.deletedAt),
        // An account already linked to another Google identity is not taken over by e-mail.
        isNull(users.googleSub),
        // Re-checked in the update itself: an account made an operator meanwhile is not linked.
        eq(users.role, 'player'),
      ),
    )
    .returning({ id: users.id });
  if (byEmail) return byEmail.id;
  const [otherGoogle] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.email})`, identity.email))
    .limit(1);
  if (otherGoogle) {
    throw new GoogleLoginError('google_email_taken');
  }

  const base = handleBase(identity.email);
  for (let attempt = 0; attempt < 6; attempt += 1) {
    const handle = attempt === 0 ? base : `${base}_${randomBytes(2).toString('hex')}`;
    try {
      const [created] = await db
        .insert(users)
        .values({
          handle,
          fullname: identity.name,
          email: identity.email,
          googleSub: identity.sub,
          emailVerifiedAt: now,
          createdAt: now,
        })
        .returning({ id: users.id });
      if (created) return created.id;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new GoogleLoginError('google_account_failed');
}
