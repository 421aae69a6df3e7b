import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../config.ts';
import { ErrorCode } from '../errors.ts';
import { describeWait } from '../lib/describe-wait.ts';
import { postgresRateLimitStore, SharedBudgets, type Verdict } from './shared-rate-limits.ts';

const MINUTE_MS = 60_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** The per-client API limit, for a way of answering that does not pass the hook below. */
    apiRateLimit: {
      /**
       * Counts one request of `ip` when it can pass at once, and returns the headers its answer
       * carries (name, value, name, value…); undefined (nothing counted) when it must wait for a
       * claim or be refused.
       */
      passAtOnce: (ip: string, nowMs: number) => string[] | undefined;
      /** Whether `passAtOnce` would pass a request of `ip` now; counts nothing. */
      canPassAtOnce: (ip: string, nowMs: number) => boolean;
    };
  }
}

export default fp<{ config: AppConfig; scope: string }>(
  async function rateLimitsPlugin(app: FastifyInstance, { config, scope }) {
    // Every API request counts against its client's budget for the minute, on whichever
    // instance it lands; pages and assets do not (a slow connection loading the web app must
    // never see a 429). Exact across instances, and synchronous while this instance holds
    // units of the client's budget, rather than @fastify/rate-limit's global hook, whose
    // promise chain cost ~10 µs on every request.
    const perClient = new SharedBudgets(
      app.db,
      MINUTE_MS,
      config.rateLimitMax,
      `${scope}api:`,
      (error) => app.log.warn({ err: error }, 'claiming rate-limit units failed; counting locally'),
    );
    app.addHook('preClose', async () => {
      await perClient
        .release(Date.now())
        .catch((error: unknown) =>
          app.log.warn({ err: error }, 'giving back unused rate-limit units failed'),
        );
    });

    const resetSecondsOf = (verdict: Verdict, nowMs: number) =>
      Math.max(1, Math.ceil((verdict.resetsAt - nowMs) / 1000));
    const limitHeaders = (verdict: Verdict, nowMs: number) => ({
      'x-ratelimit-limit': String(config.rateLimitMax),
      'x-ratelimit-remaining': String(verdict.remaining),
      'x-ratelimit-reset': String(resetSecondsOf(verdict, nowMs)),
    });
    app.decorate('apiRateLimit', {
      passAtOnce(ip: string, nowMs: number) {
        const verdict = perClient.hitAtOnce(ip, nowMs);
        if (!verdict) return undefined;
        return [
          'x-ratelimit-limit',
          String(config.rateLimitMax),
          'x-ratelimit-remaining',
          String(verdict.remaining),
          'x-ratelimit-reset',
          String(resetSecondsOf(verdict, nowMs)),
        ];
      },
      canPassAtOnce: (ip: string, nowMs: number) => perClient.canPassAtOnce(ip, nowMs),
    });

    const answer = (reply: FastifyReply, verdict: Verdict, nowMs: number) => {
      const resetSeconds = resetSecondsOf(verdict, nowMs);
      reply.headers(limitHeaders(verdict, nowMs));
      if (verdict.allowed) return false;
      reply
        .code(429)
        .header('retry-after', resetSeconds)
        .send({
          statusCode: 429,
          code: ErrorCode.TooManyRequests,
          message: `Too many requests, please try again in ${describeWait(resetSeconds)}`,
        });
      return true;
    };

    app.addHook('onRequest', (request, reply, done) => {
      if (!request.url.startsWith('/api/')) return done();
      // Health probes are never limited (`rateLimit: false` on the route). The prefix test keeps
      // the per-request cost to a string compare; the route's own flag keeps a made-up path
      // under /api/health (a 404) counted.
      if (request.url.startsWith('/api/health') && request.routeOptions.config.rateLimit === false)
        return done();
      const verdict = perClient.hit(request.ip, Date.now());
      if (!(verdict instanceof Promise)) {
        if (!answer(reply, verdict, Date.now())) done();
        return;
      }
      verdict.then((decided) => {
        if (!answer(reply, decided, Date.now())) done();
      }, done);
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
