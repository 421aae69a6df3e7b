import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../config.ts';
import { ErrorCode } from '../errors.ts';
import { describeWait } from '../lib/describe-wait.ts';
import { postgresRateLimitStore, SharedFixedWindow } from './shared-rate-limits.ts';

const MINUTE_MS = 60_000;
/** How often this instance adds its per-client counts to the shared ones (and learns theirs). */
const RATE_LIMIT_FLUSH_MS = 100;

export default fp<{ config: AppConfig; scope: string }>(
  async function rateLimitsPlugin(app: FastifyInstance, { config, scope }) {
    // Every API request counts against its client's budget for the minute, on whichever
    // instance it lands; pages and assets do not (a slow connection loading the web app must
    // never see a 429). Counted in memory and shared in batches rather than by
    // @fastify/rate-limit's global hook, whose promise chain cost ~10 µs on every request.
    const perClient = new SharedFixedWindow(app.db, MINUTE_MS, `${scope}api:`);
    const flusher = setInterval(() => {
      perClient
        .flush(Date.now())
        .catch((error: unknown) =>
          app.log.warn({ err: error }, 'sharing rate-limit counts failed; counting locally'),
        );
    }, RATE_LIMIT_FLUSH_MS);
    flusher.unref();
    app.addHook('onClose', async () => {
      clearInterval(flusher);
      await perClient.flush(Date.now()).catch(() => {});
    });
    app.decorate('rateLimitCounts', { flush: () => perClient.flush(Date.now()) });

    app.addHook('onRequest', (request, reply, done) => {
      if (!request.url.startsWith('/api/')) return done();
      // Health probes are never limited (`rateLimit: false` on the route). The prefix test keeps
      // the per-request cost to a string compare; the route's own flag keeps a made-up path
      // under /api/health (a 404) counted.
      if (request.url.startsWith('/api/health') && request.routeOptions.config.rateLimit === false)
        return done();
      const nowMs = Date.now();
      const window = perClient.hit(request.ip, nowMs);
      const resetSeconds = Math.max(1, Math.ceil((window.resetsAt - nowMs) / 1000));
      reply.headers({
        'x-ratelimit-limit': config.rateLimitMax,
        'x-ratelimit-remaining': Math.max(0, config.rateLimitMax - window.count),
        'x-ratelimit-reset': resetSeconds,
      });
      if (window.count <= config.rateLimitMax) return done();
      reply
        .code(429)
        .header('retry-after', resetSeconds)
        .send({
          statusCode: 429,
          code: ErrorCode.TooManyRequests,
          message: `Too many requests, please try again in ${describeWait(resetSeconds)}`,
        });
    });
    // Stricter limits of single routes (sign-in, codes, account lookups) set in their config,
    // counted in the database so every instance shares them.
    await app.register(rateLimit, {
      global: false,
      store: postgresRateLimitStore(app.db, scope),
      errorResponseBuilder: (_request, context) => ({
        statusCode: 429,
        code: ErrorCode.TooManyRequests,
        message: `Too many requests, please try again in ${context.after}`,
      }),
    });
  },
  { name: 'rate-limits', dependencies: ['database'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    rateLimitCounts: {
      /** Shares this instance's per-client counts now rather than at the next beat (tests). */
      flush: () => Promise<void>;
    };
  }
}
