// Assembles the whole server: storage (migrated, seeded when empty), the long-running parts and
// the HTTP app. main.ts runs it; integration tests run the same assembly on temporary storage.
import type { Logger } from 'pino';
import type { Config } from './config';
import { createAppContext, type AppContext, type Services } from './context';
import { openDatabase } from './db/connect';
import { migrateToLatest } from './db/migrate';
import { buildApp } from './http/app';
import type { App } from './http/route-module';
import { createLogger } from './logger';
import type { Part, RunningPart } from './part';
import { parts as defaultParts } from './parts';
import { isCatalogueEmpty } from './repositories/satellites';
import { seedCatalogue } from './seed/catalogue';

export interface Server {
  ctx: AppContext;
  app: App;
  close(): Promise<void>;
}

export interface ServerOptions {
  log?: Logger;
  /** Which long-running parts to start (default: all registered). */
  parts?: Part[];
}

export async function createServer(config: Config, options: ServerOptions = {}): Promise<Server> {
  const log = options.log ?? createLogger(config.logLevel, config.logFormat);
  const database = openDatabase(config.database);
  const applied = await migrateToLatest(database.db, database.dialect);
  if (applied.length > 0) log.info({ migrations: applied }, 'database migrated');
  if (config.seedOnEmpty && (await isCatalogueEmpty(database.db))) {
    const n = await seedCatalogue(database, { demo: config.demo });
    log.info({ satellites: n }, 'catalogue seeded');
  }
  const ctx = createAppContext(config, database, log);
  const running: { name: string; part: RunningPart }[] = [];
  const stopAll = async () => {
    for (const { name, part } of running.reverse()) {
      // Nothing calls a part's services once it begins to stop.
      for (const key of Object.keys(part.services ?? {}))
        delete ctx.services[key as keyof Services];
      try {
        await part.stop();
      } catch (err) {
        log.error({ err, part: name }, 'part did not stop cleanly');
      }
    }
  };
  try {
    for (const part of options.parts ?? defaultParts) {
      const started = await part.start(ctx);
      if (!started) continue;
      running.push({ name: part.name, part: started });
      // The one place services are attached: the parts after this one and the app use them.
      Object.assign(ctx.services, started.services);
    }
    const app = await buildApp(ctx);
    await app.ready();
    return {
      ctx,
      app,
      async close() {
        await app.close();
        await stopAll();
        await database.close();
      },
    };
  } catch (err) {
    await stopAll();
    await database.close();
    throw err;
  }
}
