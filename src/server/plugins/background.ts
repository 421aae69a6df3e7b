import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    background: {
      /**
       * Runs `task` after the current request has been answered, so how long it takes (or
       * whether there was anything to do) never shows in the answer. A failure is logged with
       * `name`; closing the app waits for every task still running.
       */
      run: (name: string, task: () => Promise<unknown>) => void;
      /** Resolves once no task is running (tests; shutdown). */
      idle: () => Promise<void>;
    };
  }
}

export default fp(
  async function backgroundPlugin(app: FastifyInstance) {
    const running = new Set<Promise<void>>();

    function run(name: string, task: () => Promise<unknown>): void {
      const tracked = (async () => {
        // A macrotask later: the reply is on its way before the task starts its first query.
        await new Promise<void>((resolve) => setImmediate(resolve));
        await task();
      })()
        .catch((error: unknown) =>
          app.log.error({ err: error, task: name }, 'background task failed'),
        )
        .finally(() => running.delete(tracked));
      running.add(tracked);
    }

    async function idle(): Promise<void> {
      // Tasks may start others; wait until none is left.
      while (running.size > 0) await Promise.allSettled([...running]);
    }

    app.decorate('background', { run, idle });
    // Registered after the database and mail plugins, so this runs before they close.
    app.addHook('onClose', idle);
  },
  { name: 'background', dependencies: ['database', 'mail'] },
);
