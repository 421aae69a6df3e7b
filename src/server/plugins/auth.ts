import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { users } from '../db/schema.ts';
import { forbidden, unauthorized } from '../errors.ts';

const ISSUER = 'pluckers';
const ALGORITHM = 'HS256';
export const ACCESS_TOKEN_TTL = '7d';

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
    authenticate: (request: FastifyRequest) => Promise<void>;
    /** Route hook (preValidation): authenticate, then 403 unless the user is an admin. */
    requireAdmin: (request: FastifyRequest) => Promise<void>;
    tokens: { sign: (user: { id: string; tokenVersion: number }) => Promise<string> };
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

    app.decorate('tokens', {
      sign: (user: { id: string; tokenVersion: number }) =>
        new SignJWT({ ver: user.tokenVersion })
          .setProtectedHeader({ alg: ALGORITHM })
          .setSubject(user.id)
          .setIssuer(ISSUER)
          .setIssuedAt()
          .setExpirationTime(ACCESS_TOKEN_TTL)
          .sign(key),
    });

    async function authenticate(request: FastifyRequest): Promise<void> {
      const token = bearerToken(request);
      if (!token) throw unauthorized();
      let subject: string;
      let version: unknown;
      try {
        const { payload } = await jwtVerify(token, key, {
          issuer: ISSUER,
          algorithms: [ALGORITHM],
        });
        if (!payload.sub) throw unauthorized();
        subject = payload.sub;
        version = payload.ver;
      } catch (error) {
        if (error instanceof joseErrors.JOSEError || error instanceof TypeError)
          throw unauthorized();
        throw error;
      }
      if (!/^[0-9a-f-]{36}$/i.test(subject)) throw unauthorized();
      const [user] = await app.db
        .select({
          id: users.id,
          role: users.role,
          tokenVersion: users.tokenVersion,
          suspendedAt: users.suspendedAt,
          deletedAt: users.deletedAt,
        })
        .from(users)
        .where(eq(users.id, subject))
        .limit(1);
      if (!user || user.deletedAt || user.tokenVersion !== version) throw unauthorized();
      if (user.suspendedAt) throw unauthorized('Your account is suspended. Contact support.');
      request.currentUser = { id: user.id, role: user.role };
    }

    app.decorate('authenticate', authenticate);
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
