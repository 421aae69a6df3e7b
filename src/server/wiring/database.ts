import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../config.ts';
import { type Database, type DatabaseHandle, openDatabase } from '../db/client.ts';
import { seedDatabase } from '../seed/seed.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
    database: DatabaseHandle;
  }
}

export interface DatabasePluginOptions {
  config: AppConfig;
  /** A database opened by the caller (tests share one per file); the caller closes it. */
  database?: DatabaseHandle;
}

export default fp<DatabasePluginOptions>(
  async function databasePlugin(app: FastifyInstance, { config, database }) {
    const handle =
      database ??
      (await openDatabase({
        databaseUrl: config.databaseUrl,
        directUrl: config.databaseDirectUrl,
        dataDir: config.dataDir,
        poolSize: config.databasePoolSize,
      }));
    if (!database) app.addHook('onClose', () => handle.close());
    await handle.migrate();
    await seedDatabase(handle.db, { demoGames: config.seedDemo });
    app.decorate('db', handle.db);
    app.decorate('database', handle);
  },
  { name: 'database' },
);
