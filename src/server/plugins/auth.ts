import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { ACCOUNT_MESSAGES } from '../../shared/messages.ts';
import {
  FRESH_SECOND_FACTOR_MS,
  SECOND_FACTOR_MESSAGES,
} from '../../shared/schemas/second-factor.ts';
import { operatorSecondFactors, sessions, users } from '../db/schema.ts';
import { AppError, ErrorCode, forbidden, unauthorized } from '../errors.ts';
import { MemoryCache } from '../lib/memory-cache.ts';
import {
  ACCOUNT_STATE_TTL_MS,
  AccountCache,
  type AccountState,
  accountSourceOf,
  type SessionState,
} from './account-cache.ts';

export { ACCOUNT_STATE_TTL_MS };

const ISSUER = 'pluckers';
const ALGORITHM = 'HS256';
export const ACCESS_TOKEN_TTL_MS = 7 * 24 * 3_600_000;
const CACHED_TOKENS = 20_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface VerifiedToken {
  subject: string;
  sessionId: string;
  version: unknown;
  expiresAtMs: number;
}

/** Where a token was issued, kept on its session row for the owner's own records. */
export interface SessionOrigin {
  userAgent?: string | null;
  ipAddress?: string | null;
}

export interface RequestUser {
  id: string;
  role: 'player' | 'admin';
  /** The server-side session the request's token belongs to (`sid`). */
  sessionId: string;
  /** The account's token version the request was admitted with. */
  tokenVersion: number;
  /** When the session last proved an operator's second factor (ms since the epoch), or null. */
  secondFactorAt: number | null;
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
    /**
     * Route hook (preValidation): authenticate, then 403 unless the user is an admin whose
     * session has proved the second factor (SECOND_FACTOR_REQUIRED, `data.enrolled`).
     */
    requireAdmin: (request: FastifyRequest) => Promise<void>;
    /**
     * Route hook (preValidation) of the second factor's own routes: an admin's session that
     * may not have proved it yet (a password only).
     */
    requireOperatorAccount: (request: FastifyRequest) => Promise<void>;
    /**
     * Route hook (preValidation, after requireAdmin) of the actions a stolen session must not
     * take on an old proof: 403 FRESH_SECOND_FACTOR_REQUIRED unless the session proved the second
     * factor in the last 15 minutes.
     */
    requireFreshSecondFactor: (request: FastifyRequest) => Promise<void>;
    tokens: {
      /** Opens a session for the user and returns its bearer token (the token carries `sid`). */
      sign: (user: { id: string; tokenVersion: number }, origin?: SessionOrigin) => Promise<string>;
      /**
       * Call after committing a change to a user's token version, role, suspension or deletion,
       * so this process stops honouring what it remembered of them.
       */
      forgetUser: (userId: string) => void;
      /** Revokes one session; its token stops working on this process at once. */
      revokeSession: (sessionId: string) => Promise<void>;
      /**
       * Revokes every session of the user and bumps the token version ("log out of all
       * devices"); every token stops working on this process at once.
       */
      revokeAllSessions: (userId: string) => Promise<void>;
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

    // Verifying a token's signature and reading its account and session are the costs every
    // authenticated request pays; all are remembered (the signature until the token expires, the
    // account and session for ACCOUNT_STATE_TTL_MS) so a busy read path does not spend them on
    // every request.
    const verifiedTokens = new MemoryCache<string, VerifiedToken>(CACHED_TOKENS);
    const accounts = new AccountCache(accountSourceOf(app.db));

    // Its sessions too: a new password revokes the others in the database, and this instance
    // must refuse them at once, not when the revocations' notifications come back to it.
    const forgetUser = (userId: string) => accounts.forgetUser(userId);
    const forgetSession = (sessionId: string) => accounts.forgetSession(sessionId);

    // Changes made anywhere (every instance, scripts, SQL) reach this process within
    // milliseconds through the database's notifications; the TTL only covers a lost connection.
    app.clusterEvents.subscribe({
      onEvent(event) {
        if (event.kind === 'account') forgetUser(event.userId);
        else if (event.kind === 'session') forgetSession(event.sessionId);
      },
      onResync() {
        accounts.clear();
      },
    });

    app.decorate('tokens', {
      sign: async (user: { id: string; tokenVersion: number }, origin: SessionOrigin = {}) => {
        const issuedAt = app.clock.now();
        const expiresAt = new Date(issuedAt.getTime() + ACCESS_TOKEN_TTL_MS);
        const [session] = await app.db
          .insert(sessions)
          .values({
            userId: user.id,
            expiresAt,
            userAgent: origin.userAgent?.slice(0, 300) ?? null,
            ipAddress: origin.ipAddress ?? null,
            createdAt: issuedAt,
          })
          .returning({ id: sessions.id });
        if (!session) throw new Error('session insert returned nothing');
        // Just written, so known live: the token's first request needs no session read.
        accounts.rememberSession(
          session.id,
          { userId: user.id, live: true, secondFactorAt: null },
          Math.min(issuedAt.getTime() + ACCOUNT_STATE_TTL_MS, expiresAt.getTime()),
        );
        return new SignJWT({ ver: user.tokenVersion, sid: session.id })
          .setProtectedHeader({ alg: ALGORITHM })
          .setSubject(user.id)
          .setIssuer(ISSUER)
          .setIssuedAt(issuedAt)
          .setExpirationTime(expiresAt)
          .sign(key);
      },
      forgetUser,
      revokeSession: async (sessionId: string) => {
        await app.db
          .update(sessions)
          .set({ revokedAt: app.clock.now() })
          .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
        forgetSession(sessionId);
      },
      revokeAllSessions: async (userId: string) => {
        const revoked = await app.db.transaction(async (tx) => {
          // The version bump also stops tokens whose session row this query cannot see yet.
          await tx
            .update(users)
            .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
            .where(eq(users.id, userId));
          return tx
            .update(sessions)
            .set({ revokedAt: app.clock.now() })
            .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
            .returning({ id: sessions.id });
        });
        forgetUser(userId);
        for (const { id } of revoked) forgetSession(id);
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
        const sessionId = payload.sid;
        if (
          !payload.sub ||
          !UUID.test(payload.sub) ||
          !payload.exp ||
          typeof sessionId !== 'string' ||
          !UUID.test(sessionId)
        )
          throw unauthorized();
        const verified = {
          subject: payload.sub,
          sessionId,
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

    function admit(
      request: FastifyRequest,
      token: VerifiedToken,
      account: AccountState | null,
      session: SessionState,
    ) {
      if (!account || account.deleted || account.tokenVersion !== token.version)
        throw unauthorized();
      if (!session.live || session.userId !== token.subject) throw unauthorized();
      if (account.suspended) throw unauthorized(ACCOUNT_MESSAGES.suspended);
      request.currentUser = {
        id: token.subject,
        role: account.role,
        sessionId: token.sessionId,
        tokenVersion: account.tokenVersion,
        secondFactorAt: session.secondFactorAt,
      };
    }

    async function authenticate(request: FastifyRequest): Promise<void> {
      const token = bearerToken(request);
      if (!token) throw unauthorized();
      const nowMs = app.clock.now().getTime();
      const verified = await verifyToken(token, nowMs);
      const [account, session] = await Promise.all([
        accounts.readAccount(verified.subject, nowMs),
        accounts.readSession(verified.sessionId, nowMs),
      ]);
      admit(request, verified, account, session);
    }

    app.decorate(
      'authenticate',
      // A callback hook: when the token, the account and the session are all remembered
      // (nearly every request) it answers without a single promise.
      (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
        const token = bearerToken(request);
        const nowMs = app.clock.now().getTime();
        const verified = token ? verifiedTokens.get(token, nowMs) : undefined;
        const account = verified ? accounts.account(verified.subject, nowMs) : undefined;
        const session = verified ? accounts.session(verified.sessionId, nowMs) : undefined;
        if (!verified || !account || !session) {
          authenticate(request).then(() => done(), done);
          return;
        }
        try {
          admit(request, verified, account, session);
        } catch (error) {
          done(error as Error);
          return;
        }
        done();
      },
    );
    async function requireOperatorAccount(request: FastifyRequest): Promise<void> {
      await authenticate(request);
      if (request.currentUser?.role !== 'admin')
        throw forbidden('Only operators can do this', ErrorCode.OperatorsOnly);
    }

    app.decorate('requireOperatorAccount', requireOperatorAccount);
    // A password (or any other way into the account) opens a session, never the console: the
    // session itself must carry a proof of the operator's authenticator.
    app.decorate('requireAdmin', async (request: FastifyRequest) => {
      await requireOperatorAccount(request);
      const user = request.currentUser;
      if (!user || user.secondFactorAt !== null) return;
      const [enrolment] = await app.db
        .select({ confirmedAt: operatorSecondFactors.confirmedAt })
        .from(operatorSecondFactors)
        .where(eq(operatorSecondFactors.userId, user.id))
        .limit(1);
      const enrolled = Boolean(enrolment?.confirmedAt);
      throw new AppError(
        ErrorCode.SecondFactorRequired,
        enrolled ? SECOND_FACTOR_MESSAGES.required : SECOND_FACTOR_MESSAGES.enrolmentRequired,
        { data: { enrolled } },
      );
    });
    app.decorate('requireFreshSecondFactor', async (request: FastifyRequest) => {
      const provedAt = request.currentUser?.secondFactorAt ?? null;
      if (provedAt !== null && app.clock.now().getTime() - provedAt <= FRESH_SECOND_FACTOR_MS)
        return;
      throw new AppError(ErrorCode.FreshSecondFactorRequired, SECOND_FACTOR_MESSAGES.fresh);
    });
  },
  { name: 'auth', dependencies: ['database', 'secrets', 'cluster-events'] },
);

/** The authenticated user of a route guarded by `app.authenticate`. */
export function requireUser(request: FastifyRequest): RequestUser {
  if (!request.currentUser) throw unauthorized();
  return request.currentUser;
}

/** The device and address a request came from, recorded on the session it opens. */
export function originOf(request: FastifyRequest): { userAgent: string | null; ipAddress: string } {
  return { userAgent: request.headers['user-agent'] ?? null, ipAddress: request.ip };
}
