import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../config.ts';

/** Every method an /api route answers (HEAD comes with GET and needs no preflight). */
export const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'];
/** The request headers a client sends beyond the CORS-safelisted ones. */
export const CORS_ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key'];
/** What a script may read of a response besides the safelisted headers: when to retry. */
export const CORS_EXPOSED_HEADERS = [
  'Retry-After',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
];
/** Chromium's ceiling; a shorter cache would only add a preflight per call every few minutes. */
const PREFLIGHT_MAX_AGE_S = 7_200;

const AVATAR_PATH = '/uploads/avatars/';

/**
 * Lets the pages of `CORS_ORIGINS` call the API and show profile photos; with none, nothing is
 * registered and the server stays same-origin only (an OPTIONS request is a 404, as before).
 *
 * Registered after `security` and before `rate-limits`, for two reasons:
 * - a preflight is answered in this plugin's onRequest hook, so the per-client limit never counts
 *   it (the browser sends one per new URL and method, which would halve a client's budget) and no
 *   route's token check sees it (browsers never send Authorization on a preflight); preflights
 *   from other origins fall through to a counted 404;
 * - profile photos need `Cross-Origin-Resource-Policy: cross-origin` to show in an allowed
 *   origin's `<img>`, overriding the `same-origin` that security's hook set just before.
 *   CORP has no allow-list, so the photos (public anyway, on leaderboards) become embeddable by
 *   any site; every other response keeps `same-origin`.
 */
export default fp<{ config: AppConfig }>(
  async function corsPlugin(app: FastifyInstance, { config }) {
    if (config.corsOrigins.length === 0) return;
    const allowed = new Set(config.corsOrigins);
    await app.register(cors, {
      // A function rather than the list: @fastify/cors answers a listed-origin check that fails
      // with a 204 preflight all the same, only without Allow-Origin; `false` grants nothing.
      origin: (origin, callback) => {
        callback(null, origin !== undefined && allowed.has(origin) ? origin : false);
      },
      methods: CORS_METHODS,
      allowedHeaders: CORS_ALLOWED_HEADERS,
      exposedHeaders: CORS_EXPOSED_HEADERS,
      // Bearer tokens, never cookies: a credentialed request would only widen what a page may do.
      credentials: false,
      maxAge: PREFLIGHT_MAX_AGE_S,
    });
    app.addHook('onRequest', (request, reply, done) => {
      if (request.url.startsWith(AVATAR_PATH))
        reply.header('cross-origin-resource-policy', 'cross-origin');
      done();
    });
  },
  { name: 'cors', dependencies: ['security'] },
);
