// Integration-test harness: the real server assembly on temporary storage. SQLite always;
// PostgreSQL when TEST_DATABASE_URL (default the local cluster) answers, each suite in a schema of
// its own that is dropped afterwards. With REQUIRE_POSTGRES=1 (CI) an unreachable PostgreSQL fails
// the run instead of skipping the dialect.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { pino } from 'pino';
import { loadConfig, type Config } from '../src/config';
import type { Part } from '../src/part';
import { createServer, type Server } from '../src/server';

export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const pgAvailable = await postgresReachable();
if (!pgAvailable && process.env.REQUIRE_POSTGRES === '1') {
  throw new Error(`PostgreSQL is required (REQUIRE_POSTGRES=1) but ${PG_URL} is not reachable`);
}

/** The dialects to run each storage-touching suite on. */
export const DIALECTS: ('sqlite' | 'postgres')[] = pgAvailable
  ? ['sqlite', 'postgres']
  : ['sqlite'];
if (!pgAvailable)
  console.warn(`PostgreSQL at ${PG_URL} not reachable: storage suites run on SQLite only`);

export interface TestEnv {
  config: Config;
  cleanup(): Promise<void>;
}

/** Temporary DATA_DIR and database for one dialect; env overrides go through the real config parser. */
export async function testEnv(
  dialect: 'sqlite' | 'postgres',
  env: Record<string, string> = {},
): Promise<TestEnv> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tinygs-test-'));
  let schema: string | null = null;
  let databaseUrl: string | undefined;
  if (dialect === 'postgres') {
    schema = `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const url = new URL(PG_URL);
    url.searchParams.set('options', `-c search_path=${schema}`);
    databaseUrl = url.toString();
  }
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    MQTT_PORT: '0',
    MQTT_HOST: '127.0.0.1',
    SIMULATED_STATIONS: '0',
    LOG_LEVEL: 'silent',
    SERVER_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  });
  return {
    config,
    async cleanup() {
      rmSync(dataDir, { recursive: true, force: true });
      if (schema) {
        const admin = new pg.Client({ connectionString: PG_URL });
        await admin.connect();
        await admin.query(`drop schema ${schema} cascade`);
        await admin.end();
      }
    },
  };
}

export interface TestServer extends Server {
  /** Base URL when listening (listen: true). */
  url: string;
  stop(): Promise<void>;
}

export async function startTestServer(
  dialect: 'sqlite' | 'postgres',
  options: { parts?: Part[]; listen?: boolean; env?: Record<string, string> } = {},
): Promise<TestServer> {
  const env = await testEnv(dialect, options.env);
  const server = await createServer(env.config, {
    log: pino({ level: 'silent' }),
    parts: options.parts ?? [],
  });
  let url = '';
  if (options.listen) {
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = server.app.server.address();
    if (addr && typeof addr === 'object') url = `http://127.0.0.1:${addr.port}`;
  }
  return {
    ...server,
    url,
    async stop() {
      await server.close();
      await env.cleanup();
    },
  };
}
