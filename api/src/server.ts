// The process entry point: parse config, start, and shut down gracefully on SIGTERM/SIGINT.
import { describeConfig, loadConfigOrExit } from './config.ts';
import { startServer } from './bootstrap.ts';
import { createLogger } from './lib/logger.ts';

const config = loadConfigOrExit();
const log = createLogger(config.LOG_LEVEL);
log.info('starting', { config: describeConfig(config) });
const running = await startServer(config, { log });
log.info(`listening on ${running.url}`);
console.log(`Bookwell is running at ${running.url.replace('127.0.0.1', 'localhost')}`);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log.info('shutting down', { signal });
    // The bound: whatever still runs then is cut (docs/decisions/32-privacy-and-operations.md).
    const force = setTimeout(() => {
      log.error('shutdown timed out', { ms: config.SHUTDOWN_TIMEOUT_MS });
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    force.unref();
    running.close({ delayMs: config.SHUTDOWN_DELAY_MS }).then(
      () => {
        log.info('stopped');
        process.exit(0);
      },
      (err) => {
        log.error('shutdown failed', { error: String(err) });
        process.exit(1);
      },
    );
  });
}
