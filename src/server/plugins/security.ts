import type { IncomingMessage, ServerResponse } from 'node:http';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import type { AppConfig } from '../config.ts';
import { describeWait, FixedWindowCounter } from '../lib/fixed-window.ts';

const MINUTE_MS = 60_000;

/**
 * The headers helmet would set, worked out once: they are the same on every response, and
 * building them per request (what @fastify/helmet does) cost ~10% of a cached read.
 */
function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown = null;
  helmet(options)(
    {} as IncomingMessage,
    response as unknown as ServerResponse,
    (error?: unknown) => {
      failure = error ?? null;
    },
  );
  if (failure) throw failure;
  return headers;
}

export default fp<{ config: AppConfig }>(
  async function securityPlugin(app: FastifyInstance, { config }) {
    const headers = securityHeaders({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          // The checkout tab's waiting page is written into about:blank, which inherits this
          // policy, and styles itself inline (src/web/features/wallet/lib/checkout-tab.ts).
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          fontSrc: ["'self'"],
          connectSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          frameAncestors: ["'none'"],
          formAction: ["'self'"],
          ...(config.publicUrl.startsWith('https://') ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      // The SPA opens payment checkouts in a new tab and needs them to come back.
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
      hsts: config.publicUrl.startsWith('https://'),
    });
    // Every API request counts against its client's budget for the minute; pages and assets do
    // not (a slow connection loading the web app must never see a 429). Done here rather than by
    // @fastify/rate-limit's global hook, whose promise chain cost ~10 µs on every request.
    const perClient = new FixedWindowCounter(MINUTE_MS);
    const sweeper = setInterval(() => perClient.sweep(Date.now()), MINUTE_MS);
    sweeper.unref();
    app.addHook('onClose', async () => clearInterval(sweeper));
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(headers);
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
          message: `Too many requests, please try again in ${describeWait(resetSeconds)}`,
        });
    });
    // Stricter limits of single routes (sign-in, codes, account lookups) set in their config.
    await app.register(rateLimit, {
      global: false,
      errorResponseBuilder: (_request, context) => ({
        statusCode: 429,
        message: `Too many requests, please try again in ${context.after}`,
      }),
    });
  },
  { name: 'security' },
);
