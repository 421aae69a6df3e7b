import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../config.ts';
import { type JobHandler, nextWakeUp, runNextJob } from '../jobs/queue.ts';
import { sweepSignInRecords } from '../modules/auth/housekeeping.ts';
import { drawGame } from '../modules/draws/service.ts';
import { chainFairnessLog } from '../modules/fairness/log.ts';
import { sweepGames } from '../modules/games/lifecycle.ts';
import { PUSH_JOB, runPushPage } from '../modules/notifications/fan-out.ts';
import { pushEndpoints } from '../modules/notifications/push-endpoint.ts';
import { reconcileBankTransfers } from '../modules/payments/bank-transfers.ts';
import { recheckSchedule } from '../modules/payments/recheck.ts';
import { reconcilePendingPayments } from '../modules/payments/service.ts';
import { renewDuePlans } from '../modules/plans/service.ts';
import { reconcileProcessingWithdrawals } from '../modules/withdrawals/transfers.ts';
import { sweepRateLimitHits } from '../plugins/shared-rate-limits.ts';
import { BeaconUnavailableError } from '../providers/beacon.ts';

declare module 'fastify' {
  interface FastifyInstance {
    jobs: {
      /** One worker tick: housekeeping, then every due job. Tests call it to move time on. */
      runDue: () => Promise<number>;
    };
  }
}

/**
 * Expired sign-in counters, sessions, known networks and rate-limit windows are only garbage (a
 * stale row counts for nothing): swept now and then.
 */
const THROTTLE_SWEEP_MS = 10 * 60_000;
/** How often the providers are asked for bank transfers whose webhook never came. */
const TRANSFER_SWEEP_MS = 5 * 60_000;

export default fp<{ config: AppConfig }>(
  async function jobsPlugin(app: FastifyInstance, { config }) {
    // One for the worker's life: its connections to push services are kept alive between pages.
    const endpoints = pushEndpoints({
      serviceHosts: config.push.serviceHosts,
      allowLocal: config.push.allowLocalEndpoints,
    });
    const handlers: Record<string, JobHandler> = {
      draw: async (payload) => {
        await app.metrics.timeDraw(() =>
          drawGame(app.db, app.beacon, String(payload.gameId), app.clock.now()),
        );
      },
      // One page of a push fan-out (it queues the next page as a job of its own).
      [PUSH_JOB]: async (payload) => {
        await runPushPage(
          {
            db: app.db,
            vapid: { ...app.secrets.vapid, subject: config.vapidSubject },
            endpoints,
            publicUrl: config.publicUrl,
            sendMail: app.sendMailSafely,
          },
          payload,
        );
      },
    };

    let lastThrottleSweep = Number.NEGATIVE_INFINITY;
    let lastTransferSweep = Number.NEGATIVE_INFINITY;

    async function runDue(): Promise<number> {
      if ((await sweepGames(app.db, app.clock.now())) > 0) app.gameLists.invalidate();
      const now = app.clock.now();
      if (now.getTime() - lastThrottleSweep >= THROTTLE_SWEEP_MS) {
        lastThrottleSweep = now.getTime();
        await Promise.all([sweepSignInRecords(app.db, now), sweepRateLimitHits(app.db, now)]).catch(
          (error: unknown) =>
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
      // Bank transfers into players' account numbers whose webhook never came: the providers are
      // asked for a list, so not on every tick.
      if (now.getTime() - lastTransferSweep >= TRANSFER_SWEEP_MS) {
        lastTransferSweep = now.getTime();
        await reconcileBankTransfers({
          db: app.db,
          providers: app.paymentProviders,
          publicUrl: config.publicUrl,
          now: () => app.clock.now(),
        }).catch((error: unknown) =>
          app.log.warn({ err: error }, 'bank transfer reconciliation failed; retrying later'),
        );
      }
      // Approved withdrawals whose transfer outcome never arrived, on the payments' backoff schedule.
      // Without a payout provider nothing can be asked; such withdrawals wait for one.
      const payouts = app.paymentProviders.payouts;
      if (payouts)
        await reconcileProcessingWithdrawals(
          app.db,
          payouts,
          app.clock.now(),
          recheckSchedule(app.paymentProviders),
        ).catch((error: unknown) =>
          app.log.warn({ err: error }, 'transfer reconciliation failed; retrying next tick'),
        );
      let ran = 0;
      for (;;) {
        try {
          if (!(await runNextJob(app.db, handlers, app.clock))) break;
          ran += 1;
        } catch (error) {
          if (error instanceof BeaconUnavailableError)
            app.log.info({ reason: error.message }, 'draw waiting for the randomness beacon');
          else app.log.error({ err: error }, 'background job failed; it will be retried');
          ran += 1;
        }
      }
      // Records written by this tick's draws (and by plays and operators since the last tick)
      // get their place in the public log.
      await chainFairnessLog(app.db).catch((error: unknown) =>
        app.log.warn({ err: error }, 'chaining the fairness log failed; retrying next tick'),
      );
      return ran;
    }
    app.decorate('jobs', { runDue });

    if (config.jobPollMs === 0) return;
    startWorker(app, runDue, config.jobPollMs);
  },
  {
    name: 'jobs',
    dependencies: [
      'database',
      'secrets',
      'mail',
      'payments',
      'game-lists',
      'cluster-events',
      'metrics',
      'beacon',
    ],
  },
);

/** However overdue the next thing is, ticks are at least this far apart (a job that keeps failing). */
const MIN_TICK_GAP_MS = 500;

/**
 * Runs a tick when something is due, not on a fixed beat: when a job is queued anywhere (the
 * database notifies every instance), when the next scheduled thing falls due (a game opening or
 * closing, a plan renewal, a job's retry or a dead worker's lock running out), and at the latest
 * every `fallbackMs` in case a notification was lost. An idle cluster costs one small query per
 * instance per `fallbackMs`.
 */
function startWorker(app: FastifyInstance, runDue: () => Promise<number>, fallbackMs: number) {
  let timer: NodeJS.Timeout | null = null;
  let timerAt = Number.POSITIVE_INFINITY;
  let running: Promise<void> | null = null;
  let wokenWhileRunning = false;
  let closed = false;

  function wakeAt(atMs: number): void {
    if (closed) return;
    if (running) {
      if (atMs <= Date.now()) wokenWhileRunning = true;
      return;
    }
    if (timer && timerAt <= atMs) return;
    if (timer) clearTimeout(timer);
    timerAt = atMs;
    timer = setTimeout(tick, Math.max(0, atMs - Date.now()));
    timer.unref();
  }

  function tick(): void {
    timer = null;
    timerAt = Number.POSITIVE_INFINITY;
    wokenWhileRunning = false;
    const startedMs = Date.now();
    running = (async () => {
      let nextMs = startedMs + fallbackMs;
      try {
        await runDue();
        const next = await nextWakeUp(app.db);
        if (next) {
          // The schedule is in app time; the timer runs on the machine's.
          const inMs = next.getTime() - app.clock.now().getTime();
          nextMs = Math.min(nextMs, Date.now() + Math.max(inMs, MIN_TICK_GAP_MS));
        }
      } catch (error) {
        app.log.error({ err: error }, 'worker tick failed');
      }
      running = null;
      wakeAt(wokenWhileRunning ? Date.now() : nextMs);
    })();
  }

  app.clusterEvents.subscribe({
    onEvent(event) {
      if (event.kind === 'job') wakeAt(Date.now());
    },
    onResync: () => wakeAt(Date.now()),
  });
  app.addHook('onReady', async () => wakeAt(Date.now()));
  app.addHook('onClose', async () => {
    closed = true;
    if (timer) clearTimeout(timer);
    await running;
  });
}
