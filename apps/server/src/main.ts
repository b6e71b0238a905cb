// `npm start`: the whole network on one machine with embedded defaults (docs/OPERATIONS.md).
import { ConfigError, loadConfig } from './config';
import { createLogger } from './logger';
import { createServer } from './server';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const log = createLogger(config.logLevel, config.logFormat);
  const server = await createServer(config, { log });
  await server.app.listen({ port: config.port, host: config.host });
  log.info(
    `${config.productName} is up: ${config.publicUrl} (API reference at ${config.publicUrl}/docs)`,
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
