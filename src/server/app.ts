import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppConfig } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { adminAuditRoutes } from './modules/admin/audit.ts';
import { adminCatalogueRoutes } from './modules/admin/catalogue.ts';
import { adminGameRoutes } from './modules/admin/games.ts';
import { adminReportRoutes } from './modules/admin/reports.ts';
import { adminUserRoutes } from './modules/admin/users.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { catalogueRoutes } from './modules/catalogue/routes.ts';
import { gameRoutes } from './modules/games/routes.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { leaderboardRoutes } from './modules/leaderboard/routes.ts';
import { notificationRoutes } from './modules/notifications/routes.ts';
import { paymentRoutes } from './modules/payments/routes.ts';
import { planRoutes } from './modules/plans/routes.ts';
import { settingsRoutes } from './modules/settings/routes.ts';
import { avatarFileRoutes, userRoutes } from './modules/users/routes.ts';
import { bankAccountResolveRoutes } from './modules/withdrawals/bank-account-routes.ts';
import { withdrawalRoutes } from './modules/withdrawals/routes.ts';
import adminBootstrapPlugin from './plugins/admin-bootstrap.ts';
import authPlugin from './plugins/auth.ts';
import databasePlugin from './plugins/database.ts';
import docsPlugin from './plugins/docs.ts';
import errorsPlugin from './plugins/errors.ts';
import jobsPlugin from './plugins/jobs.ts';
import mailPlugin from './plugins/mail.ts';
import paymentsPlugin from './plugins/payments.ts';
import secretsPlugin from './plugins/secrets.ts';
import securityPlugin from './plugins/security.ts';
import spaPlugin from './plugins/spa.ts';

export interface AppDependencies {
  /** An already-open database; the app then leaves closing it to the caller. */
  database?: DatabaseHandle;
  /** Tests move time (expiries, cooldowns, renewals); production uses the system clock. */
  clock?: Clock;
}

declare module 'fastify' {
  interface FastifyInstance {
    clock: Clock;
  }
}

/** Builds the whole server (API + web app) without listening; `main.ts` listens. */
export async function buildApp(
  config: AppConfig,
  dependencies: AppDependencies = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
    trustProxy: true,
    bodyLimit: 1_048_576,
    forceCloseConnections: 'idle',
    ajv: { customOptions: { coerceTypes: false } },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('clock', dependencies.clock ?? systemClock);

  await app.register(errorsPlugin);
  await app.register(securityPlugin, { config });
  await app.register(databasePlugin, { config, database: dependencies.database });
  await app.register(secretsPlugin, { config });
  await app.register(authPlugin);
  await app.register(mailPlugin, { config });
  await app.register(paymentsPlugin, { config });
  await app.register(adminBootstrapPlugin, { config });
  await app.register(jobsPlugin, { config });
  await app.register(docsPlugin);

  await app.register(healthRoutes, { prefix: '/api' });
  await app.register(
    async (api) => {
      await api.register(authRoutes, { config });
      await api.register(settingsRoutes);
      await api.register(catalogueRoutes);
      await api.register(userRoutes, { config });
      await api.register(notificationRoutes);
      await api.register(gameRoutes);
      await api.register(leaderboardRoutes);
      await api.register(paymentRoutes, { config });
      await api.register(withdrawalRoutes);
      await api.register(bankAccountResolveRoutes);
      await api.register(planRoutes);
      await api.register(adminGameRoutes);
      await api.register(adminUserRoutes);
      await api.register(adminCatalogueRoutes);
      await api.register(adminReportRoutes);
      await api.register(adminAuditRoutes);
    },
    { prefix: '/api/v1' },
  );
  await app.register(avatarFileRoutes, { config });
  await app.register(spaPlugin, { config });
  return app;
}
