import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { AppConfig } from '../config.ts';
import { payments, withdrawals } from '../db/schema.ts';
import { codeForStatus, ErrorCode } from '../errors.ts';
import type { DrawOutcome } from '../modules/draws/service.ts';
import { checkLedger } from '../modules/wallet/ledger-check.ts';
import { jobQueueStats, moneyTotals } from './metrics-sources.ts';

export const METRICS_PATH = '/metrics';
/** Plays are counted from this route's answers, so the play's service knows nothing of metrics. */
const PLAY_ROUTE = '/api/v1/game/play';
/** Requests no route matched share one label value, whatever path they asked for. */
export const UNMATCHED_ROUTE = '(unmatched)';

/**
 * The ledger check reads every entry of the books: once a minute at most, however often and
 * from however many Prometheus servers the instance is scraped.
 */
export const LEDGER_CHECK_EVERY_MS = 60_000;
/** Counting every payment and withdrawal row is cheaper, but still not a per-scrape query. */
export const MONEY_TOTALS_EVERY_MS = 15_000;

const DRAW_OUTCOMES = ['completed', 'cancelled', 'skipped', 'failed'] as const;
type CountedDrawOutcome = (typeof DRAW_OUTCOMES)[number];

declare module 'fastify' {
  interface FastifyInstance {
    metrics: {
      /** Runs a draw and counts it by outcome and duration (`failed` when it throws). */
      timeDraw: (draw: () => Promise<DrawOutcome>) => Promise<DrawOutcome>;
      /** Where the METRICS_PORT listener listens once the app is ready; null without one. */
      internalAddress: () => AddressInfo | null;
      /**
       * Counts an answer sent without Fastify's cycle (whose answers the onResponse hook counts):
       * its method, route pattern, status and seconds from receiving it to sending it.
       */
      countRequest: (method: string, route: string, statusCode: number, seconds: number) => void;
    };
  }
}

let processRegistry: Registry | undefined;

/**
 * How often the event-loop lag is sampled. prom-client's default, every 10 ms, wakes an idle
 * process 100 times a second, which was most of what an idle instance spent: each instance of a
 * cluster pays it, whatever its share of the traffic. Ten samples a second still give each
 * scrape's lag percentiles over hundreds of samples.
 */
const EVENT_LOOP_LAG_SAMPLE_MS = 100;

/**
 * CPU, memory, event-loop lag, GC and handles describe the process, not an app, and
 * collectDefaultMetrics starts a GC observer and an event-loop monitor that are never stopped:
 * one set per process, on a registry of this module's (never prom-client's global one), shown
 * by every app the process builds (tests build hundreds).
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({
      register: processRegistry,
      eventLoopMonitoringPrecision: EVENT_LOOP_LAG_SAMPLE_MS,
    });
  }
  return processRegistry;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** A bearer-token check that takes as long for a near miss as for a wild guess. */
function bearerCheck(token: string): (authorization: string | undefined) => boolean {
  const expected = digest(token);
  return (authorization) => {
    const match = /^Bearer +(\S+) *$/i.exec(authorization ?? '');
    return match?.[1] !== undefined && timingSafeEqual(digest(match[1]), expected);
  };
}

export default fp<{ config: AppConfig }>(
  async function metricsPlugin(app: FastifyInstance, { config }) {
    const registry = new Registry();
    const registers = [registry];

    const sources: Array<() => Promise<unknown>> = [];
    const collectErrors = new Counter({
      name: 'pluckers_metrics_collect_errors_total',
      help: 'Reads of the database for this endpoint that failed, by source; the gauges they feed keep their last values',
      labelNames: ['source'] as const,
      registers,
      // Metrics are collected side by side: wait for this scrape's reads (shared, not repeated),
      // so a failure shows in the scrape it happened in.
      async collect() {
        await Promise.all(sources.map((read) => read()));
      },
    });

    /**
     * The last value of `load`, read again once it is `everyMs` old (in app time, which tests
     * move). Concurrent scrapes share one read; a failed read is logged and counted, and the
     * previous value stays.
     */
    function scrapeSource<T>(source: string, everyMs: number, load: () => Promise<T>) {
      let last: T | undefined;
      let loadedAtMs = Number.NEGATIVE_INFINITY;
      let loading: Promise<T | undefined> | null = null;
      collectErrors.inc({ source }, 0);
      const read = (): Promise<T | undefined> => {
        const age = app.clock.now().getTime() - loadedAtMs;
        // A clock set back (tests do) reads again rather than trusting a value from the future.
        if (age >= 0 && age < everyMs) return Promise.resolve(last);
        loading ??= load()
          .then(
            (value) => {
              last = value;
              loadedAtMs = app.clock.now().getTime();
              return value;
            },
            (error: unknown) => {
              collectErrors.inc({ source });
              app.log.warn({ err: error, source }, 'metrics: reading the database failed');
              return last;
            },
          )
          .finally(() => {
            loading = null;
          });
        return loading;
      };
      sources.push(read);
      return read;
    }

    // Requests, plays: counted as they are answered.
    const requestDuration = new Histogram({
      name: 'pluckers_http_request_duration_seconds',
      help: 'Time from receiving a request to sending its answer, by method, route pattern and status class',
      labelNames: ['method', 'route', 'status_class'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    const plays = new Counter({
      name: 'pluckers_plays_total',
      help: 'Answers to POST /api/v1/game/play: accepted, refused (with the error code: CONFLICT for a full game, an answer already given or a changed fee; BAD_REQUEST, FORBIDDEN…) or failed',
      labelNames: ['outcome', 'code'] as const,
      registers,
    });
    plays.inc({ outcome: 'accepted' }, 0);

    // Each series' histogram looked up by route, method and status class rather than by a
    // labels object, which prom-client hashes (keys sorted, joined) on every observation.
    const durationSeries = new Map<string, Map<string, Array<{ observe(value: number): void }>>>();
    function countRequest(method: string, route: string, status: number, seconds: number) {
      let byMethod = durationSeries.get(route);
      if (!byMethod) {
        byMethod = new Map();
        durationSeries.set(route, byMethod);
      }
      let byClass = byMethod.get(method);
      if (!byClass) {
        byClass = [];
        byMethod.set(method, byClass);
      }
      const statusClass = Math.floor(status / 100);
      let series = byClass[statusClass];
      if (!series) {
        series = requestDuration.labels({ method, route, status_class: `${statusClass}xx` });
        byClass[statusClass] = series;
      }
      series.observe(seconds);
    }

    app.addHook('onResponse', (request, reply, done) => {
      // The pattern (`/api/v1/game/:id`), never the path: a label value per game, user or
      // made-up URL would grow without bound.
      const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
      if (route !== METRICS_PATH) {
        const status = reply.statusCode;
        countRequest(request.method, route, status, reply.elapsedTime / 1000);
        if (route === PLAY_ROUTE && request.method === 'POST') {
          if (status < 300) plays.inc({ outcome: 'accepted' });
          else
            plays.inc({
              outcome: status < 500 ? 'refused' : 'failed',
              code: codeForStatus(status),
            });
        }
      }
      done();
    });

    // Draws: counted by the worker that runs them (wiring/jobs.ts).
    const draws = new Counter({
      name: 'pluckers_draws_total',
      help: 'Draws run by this instance, by outcome: completed, cancelled (under 5 players, fees refunded), skipped (already settled) or failed (retried later)',
      labelNames: ['outcome'] as const,
      registers,
    });
    const drawDuration = new Histogram({
      name: 'pluckers_draw_duration_seconds',
      help: 'How long a draw took, by outcome',
      labelNames: ['outcome'] as const,
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers,
    });
    for (const outcome of DRAW_OUTCOMES) {
      draws.inc({ outcome }, 0);
      drawDuration.zero({ outcome });
    }

    async function timeDraw(draw: () => Promise<DrawOutcome>): Promise<DrawOutcome> {
      const started = performance.now();
      const counted = (outcome: CountedDrawOutcome) => {
        draws.inc({ outcome });
        drawDuration.observe({ outcome }, (performance.now() - started) / 1000);
      };
      try {
        const outcome = await draw();
        counted(outcome);
        return outcome;
      } catch (error) {
        counted('failed');
        throw error;
      }
    }

    // Cache invalidations: counted by plugins/cluster-events.ts, read here on each scrape.
    const received = app.clusterEvents.received;
    const reported: Partial<Record<keyof typeof received, number>> = {};
    new Counter({
      name: 'pluckers_cache_invalidations_total',
      help: 'Change notifications that made this instance drop cached state, by kind (resync: the listening connection came back and everything cached was forgotten)',
      labelNames: ['kind'] as const,
      registers,
      collect() {
        for (const kind of Object.keys(received) as Array<keyof typeof received>) {
          this.inc({ kind }, received[kind] - (reported[kind] ?? 0));
          reported[kind] = received[kind];
        }
      },
    });

    // The job queue: one small query per scrape, through the partial index of unfinished jobs.
    const jobQueue = scrapeSource('jobs', 0, () => jobQueueStats(app.db, app.clock.now()));
    new Gauge({
      name: 'pluckers_job_queue_jobs',
      help: 'Unfinished background jobs (draws) of the whole cluster, by state: due (waiting for a worker), running, scheduled (not due yet)',
      labelNames: ['state'] as const,
      registers,
      async collect() {
        const stats = await jobQueue();
        if (!stats) return;
        this.set({ state: 'due' }, stats.due);
        this.set({ state: 'running' }, stats.running);
        this.set({ state: 'scheduled' }, stats.scheduled);
      },
    });
    new Gauge({
      name: 'pluckers_job_queue_retrying_jobs',
      help: 'Unfinished jobs whose last attempt failed (retried with backoff)',
      registers,
      async collect() {
        const stats = await jobQueue();
        if (stats) this.set(stats.retrying);
      },
    });
    new Gauge({
      name: 'pluckers_job_queue_oldest_due_seconds',
      help: 'How long the job that has waited longest for a worker has been due; 0 when none waits',
      registers,
      async collect() {
        const stats = await jobQueue();
        if (stats) this.set(stats.oldestDueSeconds);
      },
    });

    // Payments and withdrawals: what the rows say, cluster-wide (see metrics-sources.ts).
    const money = scrapeSource('money', MONEY_TOTALS_EVERY_MS, () => moneyTotals(app.db));
    new Gauge({
      name: 'pluckers_payments',
      help: 'Top-ups of the whole cluster by method, mode (live or sandbox) and status (PENDING, SUCCESS, FAILED), read at most every 15 s',
      labelNames: ['method', 'mode', 'status'] as const,
      registers,
      async collect() {
        const totals = await money();
        if (!totals) return;
        // Every combination the schema allows, so a first failure is a step from 0, not a new series.
        for (const method of payments.method.enumValues)
          for (const mode of payments.mode.enumValues)
            for (const status of payments.status.enumValues) this.set({ method, mode, status }, 0);
        for (const { method, mode, status, count } of totals.payments)
          this.set({ method, mode, status }, count);
      },
    });
    new Gauge({
      name: 'pluckers_withdrawals',
      help: 'Withdrawals of the whole cluster by status (PENDING, PROCESSING, SUCCESSFUL, FAILED, REJECTED), read at most every 15 s',
      labelNames: ['status'] as const,
      registers,
      async collect() {
        const totals = await money();
        if (!totals) return;
        for (const status of withdrawals.status.enumValues) this.set({ status }, 0);
        for (const { status, count } of totals.withdrawals) this.set({ status }, count);
      },
    });

    // The ledger check: every invariant of the books (modules/wallet/ledger-check.ts).
    const ledger = scrapeSource('ledger', LEDGER_CHECK_EVERY_MS, async () => {
      const started = performance.now();
      const result = await checkLedger(app.db, app.paymentProviders);
      return {
        ok: result.ok,
        invariants: result.invariants.map(({ name, ok }) => ({ name, ok })),
        checkedAt: app.clock.now(),
        seconds: (performance.now() - started) / 1000,
      };
    });
    new Gauge({
      name: 'pluckers_ledger_ok',
      help: '1 when every invariant of the books held at the last ledger check (at most once a minute); 0 when one failed or no check has completed',
      registers,
      async collect() {
        const result = await ledger();
        if (result) this.set(result.ok ? 1 : 0);
      },
    });
    new Gauge({
      name: 'pluckers_ledger_invariant_ok',
      help: 'Each invariant of the last ledger check: 1 held, 0 failed (npm run admin -- check-ledger lists the rows)',
      labelNames: ['invariant'] as const,
      registers,
      async collect() {
        const result = await ledger();
        for (const { name, ok } of result?.invariants ?? [])
          this.set({ invariant: name }, ok ? 1 : 0);
      },
    });
    new Gauge({
      name: 'pluckers_ledger_checked_timestamp_seconds',
      help: 'When the last ledger check completed (Unix time)',
      registers,
      async collect() {
        const result = await ledger();
        if (result) this.set(result.checkedAt.getTime() / 1000);
      },
    });
    new Gauge({
      name: 'pluckers_ledger_check_duration_seconds',
      help: 'How long the last ledger check took',
      registers,
      async collect() {
        const result = await ledger();
        if (result) this.set(result.seconds);
      },
    });

    // The connection pool (PostgreSQL; the embedded database has a single connection).
    const poolStats = app.database.poolStats;
    if (poolStats) {
      new Gauge({
        name: 'pluckers_db_pool_connections',
        help: "This instance's pooled database connections, by state: in_use or idle",
        labelNames: ['state'] as const,
        registers,
        collect() {
          const stats = poolStats();
          this.set({ state: 'in_use' }, stats.total - stats.idle);
          this.set({ state: 'idle' }, stats.idle);
        },
      });
      new Gauge({
        name: 'pluckers_db_pool_max_connections',
        help: 'The most connections the pool opens',
        registers,
        collect() {
          this.set(poolStats().max);
        },
      });
      new Gauge({
        name: 'pluckers_db_pool_waiting_queries',
        help: 'Queries waiting for a free pooled connection',
        registers,
        collect() {
          this.set(poolStats().waiting);
        },
      });
    }

    const exposed = Registry.merge([processMetrics(), registry]);
    const authorized = config.metrics.token ? bearerCheck(config.metrics.token) : () => true;
    // Served on the main port only when there is a token and no port of its own: a public
    // /metrics without a token would tell anyone the traffic, the queue and the books' health.
    const onMainPort = config.metrics.port === undefined && config.metrics.token !== undefined;

    app.get(
      METRICS_PATH,
      // Outside /api, so neither the per-client limit nor any other limit counts scrapes.
      { schema: { hide: true }, config: { rateLimit: false } },
      async (request, reply) => {
        if (!onMainPort)
          return reply.status(404).send({
            message: `Route ${request.method} ${METRICS_PATH} not found`,
            statusCode: 404,
            code: ErrorCode.NotFound,
          });
        if (!authorized(request.headers.authorization))
          return reply
            .status(401)
            .header('www-authenticate', 'Bearer')
            .send({ statusCode: 401, code: ErrorCode.Unauthorized, message: 'Unauthorized' });
        const body = await exposed.metrics();
        return reply.header('cache-control', 'no-store').type(exposed.contentType).send(body);
      },
    );

    let internal: Server | null = null;
    const metricsPort = config.metrics.port;
    if (metricsPort !== undefined) {
      const server = createServer((request, response) =>
        serveInternal(request, response, exposed, authorized, (error) =>
          app.log.error({ err: error }, 'metrics: collecting failed'),
        ),
      );
      internal = server;
      // At ready rather than at listen: a port already taken stops start-up with its error.
      app.addHook('onReady', async () => {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(metricsPort, config.host, () => {
            server.off('error', reject);
            resolve();
          });
        });
        app.log.info({ address: server.address() }, 'metrics: served on their own port');
      });
      app.addHook('onClose', async () => {
        if (!server.listening) return;
        // Prometheus keeps its connection open between scrapes: nothing to wait for.
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      });
    }

    app.decorate('metrics', {
      timeDraw,
      countRequest,
      internalAddress: () => {
        const address = internal?.address();
        return address && typeof address === 'object' ? address : null;
      },
    });
  },
  { name: 'metrics', dependencies: ['database', 'cluster-events', 'payments'] },
);

/** The METRICS_PORT listener: `GET /metrics` and nothing else. */
function serveInternal(
  request: IncomingMessage,
  response: ServerResponse,
  exposed: Registry,
  authorized: (authorization: string | undefined) => boolean,
  onError: (error: unknown) => void,
): void {
  const path = (request.url ?? '').split('?', 1)[0];
  if (path !== METRICS_PATH || (request.method !== 'GET' && request.method !== 'HEAD')) {
    response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
    return;
  }
  if (!authorized(request.headers.authorization)) {
    response
      .writeHead(401, { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer' })
      .end('Unauthorized\n');
    return;
  }
  exposed.metrics().then(
    (body) => {
      response.writeHead(200, { 'content-type': exposed.contentType, 'cache-control': 'no-store' });
      response.end(request.method === 'HEAD' ? undefined : body);
    },
    (error: unknown) => {
      onError(error);
      response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Failed\n');
    },
  );
}
