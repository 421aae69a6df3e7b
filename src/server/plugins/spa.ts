import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../config.ts';

/**
 * Serves the built web app: hashed assets cached for a year, everything else revalidated,
 * and `index.html` for any non-API path so client routes survive a reload.
 */
export default fp<{ config: AppConfig }>(
  async function spaPlugin(app: FastifyInstance, { config }) {
    const root = path.resolve(config.webDist);
    const built = existsSync(path.join(root, 'index.html'));

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
        return reply
          .status(404)
          .send({ message: `Route ${request.method} ${pathname} not found`, statusCode: 404 });
      }
      if (!built) {
        return reply
          .status(503)
          .type('text/plain; charset=utf-8')
          .send('The web app is not built yet. Run `npm run build` (npm start does it for you).');
      }
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    });
  },
  { name: 'spa' },
);
