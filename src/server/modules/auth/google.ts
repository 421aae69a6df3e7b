import { randomBytes } from 'node:crypto';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import * as oidc from 'openid-client';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { oauthStates, users } from '../../db/schema.ts';
import { createOneTimeToken } from './one-time-tokens.ts';

export interface GoogleSettings {
  clientId: string;
  clientSecret: string;
  issuer: string;
}

const STATE_TTL_MS = 10 * 60_000;

export class GoogleLoginError extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
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
    /** The provider's authorisation URL, with PKCE, state and nonce remembered server-side. */
    async authorizationUrl(db: Database, now: Date): Promise<string> {
      const config = await discover();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      await db
        .delete(oauthStates)
        .where(lt(oauthStates.createdAt, new Date(now.getTime() - STATE_TTL_MS)));
      await db.insert(oauthStates).values({ state, nonce, codeVerifier, createdAt: now });
      return oidc
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
    },

    /** Finishes the code flow and returns a one-time token for /auth/validate/:token. */
    async complete(db: Database, currentUrl: URL, now: Date): Promise<string> {
      const providerError = currentUrl.searchParams.get('error');
      if (providerError)
        throw new GoogleLoginError(
          providerError === 'access_denied' ? 'Google login was cancelled' : 'Google login failed',
        );
      const state = currentUrl.searchParams.get('state');
      if (!state) throw new GoogleLoginError('Google login failed: missing state');
      const [pending] = await db
        .delete(oauthStates)
        .where(eq(oauthStates.state, state))
        .returning();
      if (!pending || pending.createdAt.getTime() + STATE_TTL_MS < now.getTime()) {
        throw new GoogleLoginError('Google login expired, please try again');
      }
      const config = await discover();
      const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new GoogleLoginError('Google login failed: no identity returned');
      const email = typeof claims.email === 'string' ? claims.email.toLowerCase() : null;
      if (!email || claims.email_verified !== true) {
        throw new GoogleLoginError('Your Google e-mail address is not verified');
      }
      const name =
        typeof claims.name === 'string' && claims.name.trim()
          ? claims.name.trim()
          : (email.split('@')[0] ?? email);
      const userId = await findOrCreateGoogleUser(db, { sub: claims.sub, email, name }, now);
      return createOneTimeToken(db, userId, 'login', now);
    },
  };
}

export type GoogleClient = ReturnType<typeof createGoogleClient>;

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
    .select({ id: users.id, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.googleSub, identity.sub))
    .limit(1);
  if (linked && !linked.deletedAt) return linked.id;

  // Google vouches for the address, so an account with that e-mail is the same person.
  const [byEmail] = await db
    .update(users)
    .set({
      googleSub: identity.sub,
      emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now.toISOString()}::timestamptz)`,
    })
    .where(and(eq(sql`lower(${users.email})`, identity.email), isNull(users.deletedAt)))
    .returning({ id: users.id });
  if (byEmail) return byEmail.id;

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
  throw new GoogleLoginError('Could not create your account, please try again');
}
