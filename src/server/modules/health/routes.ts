import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppConfig } from '../../config.ts';
import {
  dedicatedProbe,
  latestMigrationMillis,
  type ProbeResult,
  type ReadinessProbe,
  sharedProbe,
} from './readiness.ts';

const healthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: z.enum(['ok', 'unreachable']),
  databaseKind: z.enum(['pglite', 'postgres']),
});

const liveSchema = z.object({ status: z.literal('ok') });

const readySchema = z.object({
  status: z.enum(['ready', 'unavailable']),
  /** Shutting down: finishing in-flight requests, taking no new ones. */
  draining: z.boolean(),
  database: z.enum(['ok', 'unreachable', 'timeout', 'not_checked']),
  /** Whether the database has every migration this code ships. */
  migrations: z.enum(['applied', 'pending', 'unknown', 'not_checked']),
});
type Readiness = z.infer<typeof readySchema>;

/**
 * Probes for load balancers, orchestrators and start-up checks. None needs a token and none is
 * ever rate limited (`rateLimit: false`, which the global per-client limit honours too): behind a
 * balancer every probe comes from the balancer's one address, and a 429 there took instances out.
 */
const probeConfig = { rateLimit: false } as const;

export async function healthRoutes(app: FastifyInstance, { config }: { config: AppConfig }) {
  const expected = latestMigrationMillis();
  // Behind a transaction pooler the probe still goes straight to PostgreSQL: through the pooler
  // it would queue behind busy plays, which its own connection exists to avoid.
  const probe: ReadinessProbe =
    app.database.kind === 'postgres' && config.databaseUrl
      ? dedicatedProbe(config.databaseDirectUrl ?? config.databaseUrl, expected)
      : sharedProbe(app.db, expected);
  app.addHook('onClose', () => probe.close());

  // Balancers ask every second or so: log when the answer changes, not every time.
  let lastReported: string | null = null;
  function report(readiness: Readiness) {
    const key = JSON.stringify(readiness);
    if (key === lastReported) return;
    const wasReported = lastReported !== null;
    lastReported = key;
    if (readiness.draining) app.log.info(readiness, 'not ready: draining for shutdown');
    else if (readiness.status !== 'ready') app.log.warn(readiness, 'not ready');
    else if (wasReported) app.log.info(readiness, 'ready again');
  }

  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/health',
    {
      config: probeConfig,
      schema: {
        tags: ['health'],
        summary: 'Liveness and database reachability',
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (_request, reply) => {
      const databaseKind = app.database.kind;
      const { database } = await probe.check();
      if (database === 'ok')
        return { status: 'ok' as const, database: 'ok' as const, databaseKind };
      app.log.error({ database }, 'health check: database unreachable');
      return reply
        .status(503)
        .send({ status: 'unavailable', database: 'unreachable', databaseKind });
    },
  );

  typed.get(
    '/health/live',
    {
      config: probeConfig,
      schema: {
        tags: ['health'],
        summary: 'The process is up and answering (no database involved)',
        response: { 200: liveSchema },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  typed.get(
    '/health/ready',
    {
      config: probeConfig,
      schema: {
        tags: ['health'],
        summary:
          'Ready for traffic: database reachable, migrations applied, not shutting down (503 says which)',
        response: { 200: readySchema, 503: readySchema },
      },
    },
    async (_request, reply) => {
      const readiness = app.lifecycle.draining
        ? ({
            status: 'unavailable',
            draining: true,
            database: 'not_checked',
            migrations: 'not_checked',
          } satisfies Readiness)
        : judged(await probe.check());
      report(readiness);
      return reply.status(readiness.status === 'ready' ? 200 : 503).send(readiness);
    },
  );
}

function judged(result: ProbeResult): Readiness {
  const ready = result.database === 'ok' && result.migrations === 'applied';
  return { status: ready ? 'ready' : 'unavailable', draining: false, ...result };
}
