import { ConfigError, loadConfig } from './config.ts';

const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  // Loaded after the config check so a bad variable fails fast with its one-line message.
  const { buildApp } = await import('./app.ts');
  const app = await buildApp(config);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const timer = setTimeout(() => {
      app.log.error('shutdown took too long, exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    timer.unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ host: config.host, port: config.port });
  app.log.info(
    { url: config.publicUrl, database: app.database.kind },
    `Pluckers is ready on ${config.publicUrl}`,
  );
}

main().catch((error: unknown) => {
  console.error('Pluckers failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
