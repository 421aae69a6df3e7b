import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { destination } from 'pino';
import { api } from './api.ts';
import type { AppConfig } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { gameListsPlugin } from './modules/games/list-cache.ts';
import { gameListReadsPlugin } from './modules/games/list-reads.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { avatarFileRoutes } from './modules/profile/routes.ts';
import authPlugin from './plugins/auth.ts';
import backgroundPlugin from './plugins/background.ts';
import beaconPlugin from './plugins/beacon.ts';
import clusterEventsPlugin from './plugins/cluster-events.ts';
import compressionPlugin from './plugins/compression.ts';
import corsPlugin from './plugins/cors.ts';
import docsPlugin from './plugins/docs.ts';
import errorsPlugin from './plugins/errors.ts';
import fileStorePlugin from './plugins/file-store.ts';
import inputGuardPlugin from './plugins/input-guard.ts';
import lifecyclePlugin from './plugins/lifecycle.ts';
import mailPlugin from './plugins/mail.ts';
import paymentsPlugin from './plugins/payments.ts';
import rateLimitsPlugin from './plugins/rate-limits.ts';
import secretsPlugin from './plugins/secrets.ts';
import securityPlugin from './plugins/security.ts';
import spaPlugin from './plugins/spa.ts';
import adminBootstrapPlugin from './wiring/admin-bootstrap.ts';
import databasePlugin from './wiring/database.ts';
import jobsPlugin from './wiring/jobs.ts';
import metricsPlugin from './wiring/metrics.ts';

export interface AppDependencies {
  /** An already-open database; the app then leaves closing it to the caller. */
  database?: DatabaseHandle;
  /** Tests move time (expiries, cooldowns, renewals); production uses the system clock. */
  clock?: Clock;
  /**
   * Whose rate-limit counters this app shares. Every instance of a deployment shares one set
   * (the default); tests that share a database give each app its own unless they test sharing.
   */
  rateLimitScope?: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    clock: Clock;
  }
}

const LOG_FLUSH_MS = 1_000;

/**
 * Log lines gathered into writes of 4 KB or more, in the background, and written at least every
 * LOG_FLUSH_MS (and on exit, by pino): one system call per ~25 lines instead of one per line,
 * which under load cost the read path a tenth of its capacity.
 */
function batchedStdout() {
  const stream = destination({ dest: 1, sync: false, minLength: 4096 });
  const timer = setInterval(() => stream.flush(), LOG_FLUSH_MS);
  timer.unref();
  return Object.assign(stream, {
    stop() {
      clearInterval(timer);
      stream.flush();
    },
  });
}

const SLOW_REQUEST_MS = 1_000;

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

/**
 * One log line per request, when it ends, instead of Fastify's two. Successful quick reads are
 * logged at debug (`LOG_LEVEL=debug` shows them): they are most of the traffic, say nothing an
 * operator acts on, and writing them cost the read path ~10% of its capacity. Writes, refusals,
 * failures and slow requests are logged at info or above.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply) {
    const line = {
      method: request.method,
      // Without the query string: sign-in links and OAuth callbacks carry secrets there.
      path: request.url.split('?', 1)[0],
      statusCode: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else if (
      reply.statusCode < 400 &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      reply.elapsedTime < SLOW_REQUEST_MS
    )
      reply.log.debug(line, 'request');
    else reply.log.info(line, 'request');
  }
}

/** Builds the whole server (API + web app) without listening; `main.ts` listens. */
export async function buildApp(
  config: AppConfig,
  dependencies: AppDependencies = {},
): Promise<FastifyInstance> {
  const logStream = config.logLevel === 'silent' ? null : batchedStdout();
  const app = Fastify({
    logger: logStream
      ? {
          level: config.logLevel,
          redact: ['req.headers.authorization', 'req.headers.cookie'],
          stream: logStream,
        }
      : false,
    logController: new OneLinePerRequest(),
    // A hop count as the function Fastify makes of one (its types only take the function).
    trustProxy:
      typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    bodyLimit: 1_048_576,
    forceCloseConnections: 'idle',
    // The database plugin migrates (and, on a new embedded database, seeds) before the server
    // listens; on a busy machine that outlasts Fastify's 10 s default and start-up failed.
    pluginTimeout: 120_000,
    ajv: { customOptions: { coerceTypes: false } },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('clock', dependencies.clock ?? systemClock);
  if (logStream) app.addHook('onClose', async () => logStream.stop());

  await app.register(errorsPlugin);
  await app.register(lifecyclePlugin);
  await app.register(inputGuardPlugin);
  await app.register(securityPlugin, { config });
  // Before the rate limits and auth, so a preflight is answered without either (plugins/cors.ts).
  await app.register(corsPlugin, { config });
  await app.register(databasePlugin, { config, database: dependencies.database });
  await app.register(secretsPlugin, { config });
  await app.register(fileStorePlugin, { config });
  await app.register(clusterEventsPlugin);
  await app.register(rateLimitsPlugin, { config, scope: dependencies.rateLimitScope ?? '' });
  await app.register(authPlugin);
  await app.register(mailPlugin, { config });
  await app.register(backgroundPlugin);
  await app.register(paymentsPlugin, { config });
  // Before every route, so its timing hook sees them all, and before the worker it counts.
  await app.register(metricsPlugin, { config });
  await app.register(gameListsPlugin);
  await app.register(adminBootstrapPlugin, { config });
  await app.register(beaconPlugin, { config });
  await app.register(jobsPlugin, { config });
  await app.register(docsPlugin);
  await app.register(gameListReadsPlugin, { config });

  await app.register(healthRoutes, { prefix: '/api', config });
  await app.register(
    async (v1) => {
      await v1.register(compressionPlugin);
      await v1.register(api, { config });
    },
    { prefix: '/api/v1' },
  );
  await app.register(avatarFileRoutes, { config });
  await app.register(spaPlugin, { config });
  return app;
}
