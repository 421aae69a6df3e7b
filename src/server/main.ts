import { ConfigError, loadConfig } from './config.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

  /**
   * Graceful shutdown, in the order a load balancer needs: first answer /api/health/ready with
   * 503 while still serving everything, long enough (SHUTDOWN_DELAY_MS) for the balancer's
   * checks to take this instance out of rotation; then close, which stops listening, lets
   * in-flight requests and the running job tick finish, and closes the database; then exit.
   * Without the delay, requests the balancer sends before it notices would hit a closed port.
   */
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.lifecycle.startDraining();
    app.log.info(
      { signal, delayMs: config.shutdownDelayMs },
      'shutting down: not ready any more, still serving while the load balancer notices',
    );
    const timer = setTimeout(() => {
      app.log.error(
        { timeoutMs: config.shutdownTimeoutMs },
        'shutdown took too long (SHUTDOWN_TIMEOUT_MS), exiting',
      );
      process.exit(1);
    }, config.shutdownDelayMs + config.shutdownTimeoutMs);
    timer.unref();
    if (config.shutdownDelayMs > 0) await sleep(config.shutdownDelayMs);
    app.log.info('shutting down: finishing in-flight requests');
    try {
      await app.close();
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
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
