import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    lifecycle: {
      /** True from the shutdown signal on: /api/health/ready answers 503 from then. */
      readonly draining: boolean;
      /** Starts draining; the process keeps serving until `close()`. */
      startDraining(): void;
    };
  }
}

/**
 * The process's place between start and exit, for the readiness probe and graceful shutdown
 * (`main.ts`). While draining, every answer also asks its client to close the connection, so
 * keep-alive clients (a balancer's pooled connections, browsers) reconnect to another instance
 * instead of finding this one gone at their next request.
 */
export default fp(
  async function lifecyclePlugin(app: FastifyInstance) {
    let draining = false;
    app.decorate('lifecycle', {
      get draining() {
        return draining;
      },
      startDraining() {
        draining = true;
      },
    });
    app.addHook('onRequest', (_request, reply, done) => {
      if (draining) reply.header('connection', 'close');
      done();
    });
  },
  { name: 'lifecycle' },
);
