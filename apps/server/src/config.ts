// Server configuration, read once from the environment and validated. Every variable is documented
// in docs/OPERATIONS.md; a bad value stops start-up with a message naming the variable.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** Repository root: defaults (./data, the built web app) are relative to it, not to the cwd. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

const port = z.coerce.number().int().min(0).max(65535);
const flag = z
  .enum(['0', '1', 'true', 'false', 'yes', 'no'])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

const EnvSchema = z.object({
  PORT: port.default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^(postgres(ql)?:\/\/|sqlite:)/, 'must start with postgres:// or sqlite:')
    .optional(),
  MQTT_PORT: port.optional(),
  MQTT_HOST: z.string().min(1).default('0.0.0.0'),
  MQTT_TLS_PORT: port.default(8883),
  MQTT_TLS_CERT: z.string().optional(),
  MQTT_TLS_KEY: z.string().optional(),
  /** Public address of the broker as stations should dial it (sent with new-station credentials). */
  MQTT_PUBLIC_HOST: z.string().optional(),
  PUBLIC_URL: z.url().optional(),
  SERVER_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  PRODUCT_NAME: z.string().min(1).default('TinyGS'),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').optional(),
  MAIL_FROM: z.string().default('TinyGS <noreply@localhost>'),
  TELEGRAM_BOT_TOKEN: z.string().optional(),
  SIMULATED_STATIONS: z.coerce.number().int().min(0).max(100_000).default(200),
  SEED_ON_EMPTY: flag.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  WEB_DIST: z.string().optional(),
  VIEWER_DIST: z.string().optional(),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };
  mqtt: {
    /** null: not set explicitly; 1883 is tried and a free port used when it is taken. */
    port: number | null;
    host: string;
    publicHost: string;
    tls: { port: number; cert: string; key: string } | null;
  };
  publicUrl: string;
  serverSecret: string;
  productName: string;
  smtpUrl: string | null;
  mailFrom: string;
  telegramBotToken: string | null;
  simulatedStations: number;
  seedOnEmpty: boolean;
  logLevel: string;
  logFormat: 'json' | 'pretty';
  webDist: string;
  viewerDist: string;
}

export class ConfigError extends Error {}

/** The secret that encrypts MQTT passwords: from SERVER_SECRET, or created once in DATA_DIR. */
function loadOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, 'server-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR ?? join(REPO_ROOT, 'data'));
  mkdirSync(dataDir, { recursive: true });
  if ((e.MQTT_TLS_CERT === undefined) !== (e.MQTT_TLS_KEY === undefined)) {
    throw new ConfigError('Invalid configuration:\n  MQTT_TLS_CERT and MQTT_TLS_KEY must be set together');
  }
  const database: Config['database'] =
    e.DATABASE_URL && !e.DATABASE_URL.startsWith('sqlite:')
      ? { kind: 'postgres', url: e.DATABASE_URL }
      : {
          kind: 'sqlite',
          file: e.DATABASE_URL
            ? resolve(e.DATABASE_URL.slice('sqlite:'.length))
            : join(dataDir, 'tinygs.db'),
        };
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database,
    mqtt: {
      port: e.MQTT_PORT ?? null,
      host: e.MQTT_HOST,
      publicHost: e.MQTT_PUBLIC_HOST ?? new URL(e.PUBLIC_URL ?? 'http://localhost').hostname,
      tls:
        e.MQTT_TLS_CERT && e.MQTT_TLS_KEY
          ? { port: e.MQTT_TLS_PORT, cert: e.MQTT_TLS_CERT, key: e.MQTT_TLS_KEY }
          : null,
    },
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    serverSecret: e.SERVER_SECRET ?? loadOrCreateSecret(dataDir),
    productName: e.PRODUCT_NAME,
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    telegramBotToken: e.TELEGRAM_BOT_TOKEN ?? null,
    simulatedStations: e.SIMULATED_STATIONS,
    seedOnEmpty: e.SEED_ON_EMPTY,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? (process.stdout.isTTY ? 'pretty' : 'json'),
    webDist: resolve(e.WEB_DIST ?? join(REPO_ROOT, 'apps/web/dist')),
    viewerDist: resolve(e.VIEWER_DIST ?? join(REPO_ROOT, 'apps/viewer/dist')),
  };
}
