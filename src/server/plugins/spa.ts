import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { PRERENDERED_PAGES, prerenderedPage } from '../../shared/prerendered-pages.ts';
import type { AppConfig } from '../config.ts';
import { ErrorCode } from '../errors.ts';

/**
 * Serves the built web app: hashed assets cached for a year, everything else revalidated.
 * A path the build prerendered (shared/prerendered-pages.ts: the public pages, the signed-in
 * shell at / and /Home) gets its own page, which already shows it; any other non-API path gets
 * `index.html`, so client routes survive a reload.
 */
export default fp<{ config: AppConfig }>(
  async function spaPlugin(app: FastifyInstance, { config }) {
    const root = path.resolve(config.webDist);
    const built = existsSync(path.join(root, 'index.html'));
    // A build from before the prerender has none of them: index.html answers for every page.
    const prerendered = new Set(
      PRERENDERED_PAGES.filter((page) => existsSync(path.join(root, page.file))).map(
        (page) => page.file,
      ),
    );

    if (built) {
      await app.register(fastifyStatic, {
        root,
        // One route per built file; anything else falls through to the SPA shell below.
        wildcard: false,
        preCompressed: true,
        index: false,
        setHeaders(reply, filePath) {
          const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
          reply.header(
            'cache-control',
            immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
          );
        },
      });
    }

    app.setNotFoundHandler((request, reply) => {
      const pathname = request.url.split('?')[0] ?? '';
      const wantsPage = request.method === 'GET' || request.method === 'HEAD';
      if (pathname.startsWith('/api') || !wantsPage || pathname.startsWith('/assets/')) {
        return reply.status(404).send({
          message: `Route ${request.method} ${pathname} not found`,
          statusCode: 404,
          code: ErrorCode.NotFound,
        });
      }
      if (!built) {
        return reply
          .status(503)
          .type('text/plain; charset=utf-8')
          .send('The web app is not built yet. Run `npm run build` (npm start does it for you).');
      }
      const page = prerenderedPage(pathname);
      const file = page && prerendered.has(page.file) ? page.file : 'index.html';
      return reply.header('cache-control', 'no-cache').sendFile(file);
    });
  },
  { name: 'spa' },
);
