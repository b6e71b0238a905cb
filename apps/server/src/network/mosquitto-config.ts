// A ready configuration for an external Mosquitto 2 (`npm run cli -- broker mosquitto-config`): one
// listener, the dynamic-security plugin with its state file and a generated admin, persistence
// for the instances' sessions, and the station packet limit. Writing it again reuses the admin.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { MQTT_MAX_PACKET_BYTES } from '@tinygs/contracts';

const run = promisify(execFile);

export const ADMIN_USERNAME = 'admin';
const PLUGIN_NAME = 'mosquitto_dynamic_security.so';
// MQTT fixed header (up to 5 bytes) and topic length (2 bytes) around topic and payload: the
// embedded broker's limit counts topic and payload only.
const PUBLISH_OVERHEAD_BYTES = 7;
/** QoS 1 messages kept for an instance while it restarts (its share of the ingest). */
export const QUEUED_PER_SESSION = 100_000;

export interface MosquittoConfigOptions {
  dir: string;
  port: number;
  /** listener address; all interfaces when unset */
  bind?: string;
  /** the plugin's path; looked for under /usr/lib when unset */
  plugin?: string;
}

export interface MosquittoConfig {
  config: string;
  url: string;
}

/** Where Debian, Fedora and source builds put the plugin. */
export function findDynsecPlugin(): string | null {
  const dirs = ['/usr/lib', '/usr/lib64', '/usr/local/lib'];
  for (const dir of dirs) {
    if (existsSync(join(dir, PLUGIN_NAME))) return join(dir, PLUGIN_NAME);
    if (!existsSync(dir)) continue;
    for (const sub of readdirSync(dir)) {
      const candidate = join(dir, sub, PLUGIN_NAME);
      if (existsSync(candidate)) return candidate;
    }
  }
  return null;
}

export async function writeMosquittoConfig(
  options: MosquittoConfigOptions,
): Promise<MosquittoConfig> {
  const dir = resolve(options.dir);
  const plugin = options.plugin ?? findDynsecPlugin();
  if (!plugin || !existsSync(plugin))
    throw new Error(
      `The Mosquitto dynamic-security plugin (${PLUGIN_NAME}) was not found: install mosquitto 2 or pass --plugin`,
    );
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const state = join(dir, 'dynamic-security.json');
  const passwordFile = join(dir, 'admin-password');
  let password: string;
  if (existsSync(state) && existsSync(passwordFile)) {
    password = readFileSync(passwordFile, 'utf8').trim();
  } else {
    if (existsSync(state))
      throw new Error(`${state} exists but its admin password is unknown: remove it to start over`);
    password = randomBytes(24).toString('base64url');
    // mosquitto_ctrl hashes the password as the plugin expects and writes the admin role.
    await run('mosquitto_ctrl', ['dynsec', 'init', state, ADMIN_USERNAME, password]);
    writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  }
  const config = join(dir, 'mosquitto.conf');
  const lines = [
    '# Mosquitto for a TinyGS-compatible network (npm run cli -- broker mosquitto-config).',
    '# Station credentials are managed by the server through the dynamic-security plugin.',
    'per_listener_settings false',
    `listener ${options.port}${options.bind ? ` ${options.bind}` : ''}`,
    'allow_anonymous false',
    `plugin ${plugin}`,
    `plugin_opt_config_file ${state}`,
    // Mosquitto started as root drops to this user; it must be able to write the state file.
    `user ${userInfo().username}`,
    'persistence true',
    `persistence_location ${dir}/`,
    'autosave_interval 60',
    `max_packet_size ${MQTT_MAX_PACKET_BYTES + PUBLISH_OVERHEAD_BYTES}`,
    `max_queued_messages ${QUEUED_PER_SESSION}`,
    'persistent_client_expiration 7d',
    'log_dest stderr',
    'log_type error',
    'log_type warning',
    'log_type notice',
    '',
  ];
  writeFileSync(config, lines.join('\n'), { mode: 0o600 });
  const host =
    options.bind && options.bind !== '0.0.0.0' && options.bind !== '::'
      ? options.bind
      : '127.0.0.1';
  const url = `mqtt://${ADMIN_USERNAME}:${encodeURIComponent(password)}@${host.includes(':') ? `[${host}]` : host}:${options.port}`;
  return { config, url };
}
