// Server configuration, read once from the environment and validated. Every variable is documented
// in docs/OPERATIONS.md; a bad value stops start-up with a message naming the variable.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { hostname } from 'node:os';
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
  /** PostgreSQL: months of packets kept (whole month partitions dropped); unset keeps all */
  PACKET_RETENTION_MONTHS: z.coerce.number().int().min(1).max(1200).optional(),
  MQTT_PORT: port.optional(),
  MQTT_HOST: z.string().min(1).default('0.0.0.0'),
  MQTT_TLS_PORT: port.default(8883),
  MQTT_TLS_CERT: z.string().optional(),
  MQTT_TLS_KEY: z.string().optional(),
  /** Public address of the broker as stations should dial it (sent with new-station credentials). */
  MQTT_PUBLIC_HOST: z.string().optional(),
  MQTT_MAX_STATIONS_PER_USER: z.coerce.number().int().min(1).max(100_000).default(25),
  MQTT_MAX_CONNECTIONS_PER_USER: z.coerce.number().int().min(1).max(100_000).default(50),
  MQTT_MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(100),
  MQTT_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(20_000),
  MQTT_RX_PER_SECOND: z.coerce.number().min(0.1).max(100_000).default(10),
  /** an external Mosquitto 2 (dynamic-security plugin) instead of the embedded broker */
  MQTT_BROKER_URL: z
    .url()
    .regex(/^mqtts?:\/\/[^:@/]+:[^@/]+@/, 'must look like mqtt://ADMIN:PASSWORD@HOST:PORT')
    .optional(),
  MQTT_SHARE_GROUP: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, - and _ only')
    .default('tinygs'),
  PUBLIC_URL: z.url().optional(),
  SERVER_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  PRODUCT_NAME: z.string().min(1).default('TinyGS'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().default('TinyGS <noreply@localhost>'),
  TELEGRAM_BOT_TOKEN: z.string().optional(),
  SIMULATED_STATIONS: z.coerce.number().int().min(0).max(100_000).default(200),
  SEED_ON_EMPTY: flag.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  WEB_DIST: z.string().optional(),
  /** bearer token Prometheus sends to GET /metrics; unset: loopback scrapes only */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').max(200).optional(),
  /** names this instance in metrics and logs; default host:port:pid */
  INSTANCE_ID: z.string().min(1).max(100).optional(),
  VIEWER_DIST: z.string().optional(),
  /** proxies in front of the server: a hop count, or addresses/CIDRs separated by commas */
  TRUST_PROXY: z
    .string()
    .max(2000)
    .optional()
    .transform((value, ctx) => {
      const parsed = parseTrustProxy(value);
      if (parsed === null) {
        ctx.addIssue({
          code: 'custom',
          message: 'must be a hop count (e.g. 1) or proxy addresses/CIDRs separated by commas',
        });
        return z.NEVER;
      }
      return parsed;
    }),
  /** PostgreSQL: statements running longer are cancelled (0 = no limit) */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(15_000),
  SSE_MAX_CLIENTS: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  SSE_MAX_CLIENTS_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(20),
  /** Redis shared by the instances of one network (merging, events, limits, elected jobs) */
  REDIS_URL: z
    .url()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  /** prefix of every Redis key and channel of this network (several networks on one Redis) */
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'letters, digits and _ . : - only, at most 64')
    .default('tinygs:'),
  /** public reads per minute: per client address without a token, per API token with one */
  READ_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(10_000_000).default(600),
  READ_RATE_TOKEN_PER_MINUTE: z.coerce.number().int().min(1).max(10_000_000).default(6000),
  /** 0: a real deployment: no invented satellites, no simulated stations (docs/OPERATIONS.md) */
  DEMO: flag.default(true),
  /** element-set sources (URLs or files) separated by spaces or commas; unset: no refresh */
  TLE_SOURCES: z
    .string()
    .max(20_000)
    .optional()
    .transform((value, ctx) => {
      const sources = (value ?? '').split(/[\s,]+/).filter((s) => s !== '');
      const bad = sources.find((s) => /^[a-z][a-z0-9+.-]*:\/\//i.test(s) && !isSourceUrl(s));
      if (sources.length > 50 || bad !== undefined) {
        ctx.addIssue({
          code: 'custom',
          message: bad
            ? `${bad.slice(0, 100)} is not an http(s) or file URL`
            : 'at most 50 sources',
        });
        return z.NEVER;
      }
      return sources;
    }),
  TLE_REFRESH_HOURS: z.coerce
    .number()
    .min(0.1)
    .max(24 * 7)
    .default(6),
  TLE_FETCH_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  TLE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(512 * 1024 * 1024)
    .default(32 * 1024 * 1024),
  /** a live-stream client with more than 1 MB unsent for this long is disconnected */
  SSE_SLOW_CLIENT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(30),
  /** SatNOGS DB's telemetry endpoint (https://db.satnogs.org/api/telemetry/); unset: no forwarding */
  SATNOGS_DB_URL: z
    .url()
    .regex(/^https?:\/\//, 'must start with http:// or https://')
    .max(2000)
    .refine((u) => {
      const url = new URL(u);
      return url.username === '' && url.password === '';
    }, 'must not hold credentials (the token goes in SATNOGS_DB_TOKEN)')
    .optional(),
  /** SatNOGS DB API token, sent as `Authorization: Token ...`; never logged */
  SATNOGS_DB_TOKEN: z
    .string()
    .regex(/^[A-Za-z0-9]{1,200}$/, 'letters and digits only, at most 200')
    .optional(),
  SATNOGS_DB_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /** frames kept waiting for SatNOGS DB at most; the oldest beyond are dropped */
  SATNOGS_OUTBOX_MAX_ROWS: z.coerce.number().int().min(1).max(100_000_000).default(100_000),
  /** longest wait between two tries while SatNOGS DB is unreachable */
  SATNOGS_DB_MAX_BACKOFF_MS: z.coerce.number().int().min(10).max(86_400_000).default(300_000),
  /** offline-alert mails per station owner and UTC day (each alerted outage also gets its back note) */
  OFFLINE_ALERTS_PER_DAY: z.coerce.number().int().min(0).max(100).default(3),
});

function isSourceUrl(text: string): boolean {
  try {
    return ['http:', 'https:', 'file:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

/**
 * TRUST_PROXY as fastify's trustProxy takes it: false when unset (clients connect directly), a
 * hop count, or a list of proxy addresses and CIDR ranges. Null when it is neither.
 */
export function parseTrustProxy(value: string | undefined): false | number | string[] | null {
  if (value === undefined || value.trim() === '') return false;
  const text = value.trim();
  if (/^\d{1,3}$/.test(text)) return Number(text);
  const entries = text.split(',').map((e) => e.trim());
  const valid = entries.every((entry) => {
    const [address = '', bits, ...rest] = entry.split('/');
    if (rest.length > 0) return false;
    const family = isIP(address);
    if (family === 0) return false;
    if (bits === undefined) return true;
    if (!/^\d{1,3}$/.test(bits)) return false;
    return Number(bits) <= (family === 4 ? 32 : 128);
  });
  return valid ? entries : null;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database:
    | { kind: 'sqlite'; file: string }
    /** statementTimeoutMs: statements running longer are cancelled (0 = no limit) */
    | {
        kind: 'postgres';
        url: string;
        statementTimeoutMs?: number;
        /** months of packets kept besides the current one; undefined keeps all (docs/DEPLOYMENT.md) */
        packetRetentionMonths?: number;
      };
  mqtt: {
    /** null: not set explicitly; 1883 is tried and a free port used when it is taken. */
    port: number | null;
    host: string;
    publicHost: string;
    tls: { port: number; cert: string; key: string } | null;
    /** null: the embedded broker; otherwise the external Mosquitto this instance uses */
    external: ExternalBrokerConfig | null;
  };
  /** what one user or address may take of the broker (docs/SECURITY.md) */
  mqttLimits: {
    stationsPerUser: number;
    connectionsPerUser: number;
    connectionsPerAddress: number;
    connections: number;
    /** sustained `tele/rx` per connection; bursts of ten seconds' worth pass */
    rxPerSecond: number;
  };
  publicUrl: string;
  /** fastify's trustProxy: false = clients connect directly */
  trustProxy: false | number | string[];
  /** live event stream connections */
  sseLimits: { total: number; perAddress: number; slowClientMs: number };
  /** public reads per minute (docs/SECURITY.md) */
  readLimits: { perAddress: number; perToken: number };
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
  metricsToken: string | null;
  instanceId: string;
  viewerDist: string;
  /** null: everything in this process; set: the instances share state in Redis (docs/DEPLOYMENT.md) */
  redis: { url: string; keyPrefix: string } | null;
  /** false with DEMO=0: no invented satellites, no simulator */
  demo: boolean;
  elementSets: ElementSetsConfig;
  /** offline-alert mails per owner and UTC day (0: none are sent) */
  offlineAlertsPerDay: number;
  /** null: frames are not forwarded to SatNOGS DB (SATNOGS_DB_URL unset) */
  satnogs: SatnogsConfig | null;
}

export interface SatnogsConfig {
  /** the telemetry endpoint frames are POSTed to */
  url: string;
  /** null: frames are sent without a token (SatNOGS DB accepts anonymous submissions) */
  token: string | null;
  timeoutMs: number;
  maxOutboxRows: number;
  maxBackoffMs: number;
}

export interface ElementSetsConfig {
  /** URLs (http, https, file) and file paths; `{NORAD}` in one is replaced per satellite */
  sources: string[];
  refreshMs: number;
  fetchTimeoutMs: number;
  /** largest answer read from a source (decoded bytes) */
  maxBytes: number;
}

export interface ExternalBrokerConfig {
  /** mqtt://HOST:PORT (or mqtts://) without credentials */
  url: string;
  host: string;
  port: number;
  /** the dynamic-security admin the server manages station credentials as */
  adminUsername: string;
  adminPassword: string;
  /** shared-subscription group the instances share ingest in */
  shareGroup: string;
  /** this instance's MQTT client id: stable across restarts, so its persistent session is kept */
  clientId: string;
}

function externalBroker(url: string, shareGroup: string, clientId: string): ExternalBrokerConfig {
  const u = new URL(url);
  const tls = u.protocol === 'mqtts:';
  const port = u.port ? Number(u.port) : tls ? 8883 : 1883;
  return {
    url: `${u.protocol}//${u.host}`,
    host: u.hostname.replace(/^\[|\]$/g, ''),
    port,
    adminUsername: decodeURIComponent(u.username),
    adminPassword: decodeURIComponent(u.password),
    shareGroup,
    clientId: `tinygs-${clientId}`.replace(/[^A-Za-z0-9_.:-]/g, '_').slice(0, 64),
  };
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
    throw new ConfigError(
      'Invalid configuration:\n  MQTT_TLS_CERT and MQTT_TLS_KEY must be set together',
    );
  }
  const database: Config['database'] =
    e.DATABASE_URL && !e.DATABASE_URL.startsWith('sqlite:')
      ? {
          kind: 'postgres',
          url: e.DATABASE_URL,
          statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
          ...(e.PACKET_RETENTION_MONTHS
            ? { packetRetentionMonths: e.PACKET_RETENTION_MONTHS }
            : {}),
        }
      : {
          kind: 'sqlite',
          file: e.DATABASE_URL
            ? resolve(e.DATABASE_URL.slice('sqlite:'.length))
            : join(dataDir, 'tinygs.db'),
        };
  if (e.PACKET_RETENTION_MONTHS && database.kind !== 'postgres') {
    throw new ConfigError(
      'Invalid configuration:\n  PACKET_RETENTION_MONTHS: packet retention needs a PostgreSQL DATABASE_URL',
    );
  }
  if (e.REDIS_URL && database.kind !== 'postgres') {
    throw new ConfigError(
      'Invalid configuration:\n  REDIS_URL: instances sharing state need a PostgreSQL DATABASE_URL',
    );
  }
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
      external: e.MQTT_BROKER_URL
        ? externalBroker(
            e.MQTT_BROKER_URL,
            e.MQTT_SHARE_GROUP,
            // Without INSTANCE_ID the pid is left out: a restarted instance resumes its session.
            e.INSTANCE_ID ?? `${hostname()}:${e.PORT}`,
          )
        : null,
    },
    mqttLimits: {
      stationsPerUser: e.MQTT_MAX_STATIONS_PER_USER,
      connectionsPerUser: e.MQTT_MAX_CONNECTIONS_PER_USER,
      connectionsPerAddress: e.MQTT_MAX_CONNECTIONS_PER_ADDRESS,
      connections: e.MQTT_MAX_CONNECTIONS,
      rxPerSecond: e.MQTT_RX_PER_SECOND,
    },
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    trustProxy: e.TRUST_PROXY,
    sseLimits: {
      total: e.SSE_MAX_CLIENTS,
      perAddress: e.SSE_MAX_CLIENTS_PER_ADDRESS,
      slowClientMs: e.SSE_SLOW_CLIENT_SECONDS * 1000,
    },
    readLimits: { perAddress: e.READ_RATE_PER_MINUTE, perToken: e.READ_RATE_TOKEN_PER_MINUTE },
    serverSecret: e.SERVER_SECRET ?? loadOrCreateSecret(dataDir),
    productName: e.PRODUCT_NAME,
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    telegramBotToken: e.TELEGRAM_BOT_TOKEN ?? null,
    simulatedStations: e.DEMO ? e.SIMULATED_STATIONS : 0,
    seedOnEmpty: e.SEED_ON_EMPTY,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? (process.stdout.isTTY ? 'pretty' : 'json'),
    metricsToken: e.METRICS_TOKEN ?? null,
    instanceId: e.INSTANCE_ID ?? `${hostname()}:${e.PORT}:${process.pid}`,
    webDist: resolve(e.WEB_DIST ?? join(REPO_ROOT, 'apps/web/dist')),
    viewerDist: resolve(e.VIEWER_DIST ?? join(REPO_ROOT, 'apps/viewer/dist')),
    redis: e.REDIS_URL ? { url: e.REDIS_URL, keyPrefix: e.REDIS_KEY_PREFIX } : null,
    demo: e.DEMO,
    offlineAlertsPerDay: e.OFFLINE_ALERTS_PER_DAY,
    elementSets: {
      sources: e.TLE_SOURCES,
      refreshMs: Math.round(e.TLE_REFRESH_HOURS * 3_600_000),
      fetchTimeoutMs: e.TLE_FETCH_TIMEOUT_MS,
      maxBytes: e.TLE_MAX_BYTES,
    },
    satnogs: e.SATNOGS_DB_URL
      ? {
          url: e.SATNOGS_DB_URL,
          token: e.SATNOGS_DB_TOKEN ?? null,
          timeoutMs: e.SATNOGS_DB_TIMEOUT_MS,
          maxOutboxRows: e.SATNOGS_OUTBOX_MAX_ROWS,
          maxBackoffMs: e.SATNOGS_DB_MAX_BACKOFF_MS,
        }
      : null,
  };
}
