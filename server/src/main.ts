import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  let app;
  try {
    app = await buildApp(config, { backgroundCheckpoint: true });
  } catch (e) {
    // A refusal at start-up (a database role that bypasses row-level security, an unreachable
    // database) is one line an operator can act on, not a stack trace.
    console.error(`Campus Market cannot start: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Campus Market is running at ${config.publicUrl} (database: ${app.ctx.db.dialect})`);

  // Graceful shutdown: stop accepting, let in-flight requests finish, close the database.
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

await main();
