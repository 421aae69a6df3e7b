import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../config.ts';
import { type JobHandler, runNextJob } from '../jobs/queue.ts';
import { sweepSignInRecords } from '../modules/auth/housekeeping.ts';
import { runDraw, sweepGames } from '../modules/draws/service.ts';
import { reconcilePendingPayments } from '../modules/payments/service.ts';
import { renewDuePlans } from '../modules/plans/service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    jobs: {
      /** One worker tick: housekeeping, then every due job. Tests call it to move time on. */
      runDue: () => Promise<number>;
    };
  }
}

/**
 * Expired sign-in counters, sessions and known networks are only garbage (a stale row counts
 * for nothing): swept now and then.
 */
const THROTTLE_SWEEP_MS = 10 * 60_000;

export default fp<{ config: AppConfig }>(
  async function jobsPlugin(app: FastifyInstance, { config }) {
    const handlers: Record<string, JobHandler> = {
      draw: async (payload) => {
        await runDraw(app.db, String(payload.gameId), app.clock.now());
      },
    };

    let lastThrottleSweep = Number.NEGATIVE_INFINITY;

    async function runDue(): Promise<number> {
      if ((await sweepGames(app.db, app.clock.now())) > 0) app.gameLists.invalidate();
      const now = app.clock.now();
      if (now.getTime() - lastThrottleSweep >= THROTTLE_SWEEP_MS) {
        lastThrottleSweep = now.getTime();
        await sweepSignInRecords(app.db, now).catch((error: unknown) =>
          app.log.warn({ err: error }, 'sweeping sign-in records failed; retrying later'),
        );
      }
      await renewDuePlans(app.db, app.clock.now());
      await reconcilePendingPayments({
        db: app.db,
        providers: app.paymentProviders,
        publicUrl: config.publicUrl,
        now: () => app.clock.now(),
      }).catch((error: unknown) =>
        app.log.warn({ err: error }, 'payment reconciliation failed; retrying next tick'),
      );
      let ran = 0;
      for (;;) {
        try {
          if (!(await runNextJob(app.db, handlers, app.clock.now()))) return ran;
          ran += 1;
        } catch (error) {
          app.log.error({ err: error }, 'background job failed; it will be retried');
          ran += 1;
        }
      }
    }
    app.decorate('jobs', { runDue });

    if (config.jobPollMs === 0) return;
    let running: Promise<unknown> | null = null;
    const timer = setInterval(() => {
      if (running) return;
      running = runDue()
        .catch((error: unknown) => app.log.error({ err: error }, 'worker tick failed'))
        .finally(() => {
          running = null;
        });
    }, config.jobPollMs);
    timer.unref();
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await running;
    });
  },
  { name: 'jobs', dependencies: ['database', 'payments', 'game-lists'] },
);
