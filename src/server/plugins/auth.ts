import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { users } from '../db/schema.ts';
import { forbidden, unauthorized } from '../errors.ts';
import { MemoryCache } from '../lib/memory-cache.ts';

const ISSUER = 'pluckers';
const ALGORITHM = 'HS256';
const ACCESS_TOKEN_TTL_MS = 7 * 24 * 3_600_000;
/**
 * How long this process trusts what it last read of an account (token version, role,
 * suspension, deletion) without asking the database again. Changes made through this process
 * take effect at once (`tokens.forgetUser`); this bounds how long one made elsewhere (another
 * instance, `npm run admin`) can go unseen.
 */
export const ACCOUNT_STATE_TTL_MS = 2_000;
const CACHED_TOKENS = 20_000;
const CACHED_ACCOUNTS = 20_000;

interface VerifiedToken {
  subject: string;
  version: unknown;
  expiresAtMs: number;
}

interface AccountState {
  role: RequestUser['role'];
  tokenVersion: number;
  suspended: boolean;
  deleted: boolean;
}

export interface RequestUser {
  id: string;
  role: 'player' | 'admin';
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Route hook (preValidation): 401 unless the request carries a valid, unrevoked bearer token.
     * preValidation rather than onRequest so the rate limiter (onRequest) counts refused tokens too.
     */
    authenticate: (
      request: FastifyRequest,
      reply: FastifyReply,
      done: (error?: Error) => void,
    ) => void;
    /** Route hook (preValidation): authenticate, then 403 unless the user is an admin. */
    requireAdmin: (request: FastifyRequest) => Promise<void>;
    tokens: {
      sign: (user: { id: string; tokenVersion: number }) => Promise<string>;
      /**
       * Call after committing a change to a user's token version, role, suspension or deletion,
       * so this process stops honouring what it remembered of them.
       */
      forgetUser: (userId: string) => void;
    };
  }
  interface FastifyRequest {
    currentUser: RequestUser | null;
  }
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

export default fp(
  async function authPlugin(app: FastifyInstance) {
    const key = app.secrets.jwt;

    app.decorateRequest('currentUser', null);

    // Verifying a token's signature and reading its account are the two costs every authenticated
    // request pays; both are remembered (the signature until the token expires, the account for
    // ACCOUNT_STATE_TTL_MS) so a busy read path does not spend them on every request.
    const verifiedTokens = new MemoryCache<string, VerifiedToken>(CACHED_TOKENS);
    const accounts = new MemoryCache<string, AccountState>(CACHED_ACCOUNTS);
    // Bumped by every forgetUser: an account read that raced a change is not remembered.
    let forgetGeneration = 0;

    app.decorate('tokens', {
      sign: (user: { id: string; tokenVersion: number }) => {
        const issuedAt = app.clock.now();
        return new SignJWT({ ver: user.tokenVersion })
          .setProtectedHeader({ alg: ALGORITHM })
          .setSubject(user.id)
          .setIssuer(ISSUER)
          .setIssuedAt(issuedAt)
          .setExpirationTime(new Date(issuedAt.getTime() + ACCESS_TOKEN_TTL_MS))
          .sign(key);
      },
      forgetUser: (userId: string) => {
        forgetGeneration += 1;
        accounts.delete(userId);
      },
    });

    async function verifyToken(token: string, nowMs: number): Promise<VerifiedToken> {
      const remembered = verifiedTokens.get(token, nowMs);
      if (remembered) return remembered;
      try {
        const { payload } = await jwtVerify(token, key, {
          issuer: ISSUER,
          algorithms: [ALGORITHM],
          currentDate: new Date(nowMs),
        });
        if (!payload.sub || !/^[0-9a-f-]{36}$/i.test(payload.sub) || !payload.exp)
          throw unauthorized();
        const verified = {
          subject: payload.sub,
          version: payload.ver,
          expiresAtMs: payload.exp * 1000,
        };
        verifiedTokens.set(token, verified, verified.expiresAtMs);
        return verified;
      } catch (error) {
        if (error instanceof joseErrors.JOSEError || error instanceof TypeError)
          throw unauthorized();
        throw error;
      }
    }

    async function readAccount(userId: string, nowMs: number): Promise<AccountState | null> {
      const remembered = accounts.get(userId, nowMs);
      if (remembered) return remembered;
      const generation = forgetGeneration;
      const [row] = await app.db
        .select({
          role: users.role,
          tokenVersion: users.tokenVersion,
          suspendedAt: users.suspendedAt,
          deletedAt: users.deletedAt,
        })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1);
      if (!row) return null;
      const account = {
        role: row.role,
        tokenVersion: row.tokenVersion,
        suspended: row.suspendedAt !== null,
        deleted: row.deletedAt !== null,
      };
      if (generation === forgetGeneration)
        accounts.set(userId, account, nowMs + ACCOUNT_STATE_TTL_MS);
      return account;
    }

    function admit(request: FastifyRequest, token: VerifiedToken, account: AccountState | null) {
      if (!account || account.deleted || account.tokenVersion !== token.version)
        throw unauthorized();
      if (account.suspended) throw unauthorized('Your account is suspended. Contact support.');
      request.currentUser = { id: token.subject, role: account.role };
    }

    async function authenticate(request: FastifyRequest): Promise<void> {
      const token = bearerToken(request);
      if (!token) throw unauthorized();
      const nowMs = app.clock.now().getTime();
      const verified = await verifyToken(token, nowMs);
      admit(request, verified, await readAccount(verified.subject, nowMs));
    }

    app.decorate(
      'authenticate',
      // A callback hook: when both the token and the account are remembered (nearly every
      // request) it answers without a single promise.
      (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
        const token = bearerToken(request);
        const nowMs = app.clock.now().getTime();
        const verified = token ? verifiedTokens.get(token, nowMs) : undefined;
        const account = verified ? accounts.get(verified.subject, nowMs) : undefined;
        if (!verified || !account) {
          authenticate(request).then(() => done(), done);
          return;
        }
        try {
          admit(request, verified, account);
        } catch (error) {
          done(error as Error);
          return;
        }
        done();
      },
    );
    app.decorate('requireAdmin', async (request: FastifyRequest) => {
      await authenticate(request);
      if (request.currentUser?.role !== 'admin') throw forbidden('Only operators can do this');
    });
  },
  { name: 'auth', dependencies: ['database', 'secrets'] },
);

/** The authenticated user of a route guarded by `app.authenticate`. */
export function requireUser(request: FastifyRequest): RequestUser {
  if (!request.currentUser) throw unauthorized();
  return request.currentUser;
}
