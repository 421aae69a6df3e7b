import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import { bootScript } from '../../shared/boot-script.ts';
import type { AppConfig } from '../config.ts';

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

/**
 * Of those, the ones a browser reads on a script, stylesheet, font or image (the built app's
 * /assets/). The rest (the CSP, framing, opener, referrer and legacy headers) act on documents
 * only; on an asset they are ~600 bytes that pushed the text font's response past the ~14 KB a
 * new connection sends in its first round trip, so the font a page's first paint waits for took
 * a second one.
 */
function subresourceHeaders(headers: Record<string, string>): Record<string, string> {
  const kept = [
    'x-content-type-options',
    'cross-origin-resource-policy',
    'strict-transport-security',
  ];
  return Object.fromEntries(Object.entries(headers).filter(([name]) => kept.includes(name)));
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The security headers every answer but an asset's carries, for answers written directly. */
    documentSecurityHeaders: Readonly<Record<string, string>>;
  }
}

export default fp<{ config: AppConfig }>(
  async function securityPlugin(app: FastifyInstance, { config }) {
    const headers = securityHeaders({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          // The pages' one inline script, which must run before the first paint.
          scriptSrc: [
            "'self'",
            `'sha256-${createHash('sha256').update(bootScript()).digest('base64')}'`,
          ],
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
    const assetHeaders = subresourceHeaders(headers);
    app.decorate('documentSecurityHeaders', headers);
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(request.url.startsWith('/assets/') ? assetHeaders : headers);
      done();
    });
  },
  { name: 'security' },
);
