#!/usr/bin/env node
// `npm run cluster -- --instances N`: the production shape on one machine, from this repository.
// Mosquitto 2 with the configuration `npm run cli -- broker mosquitto-config` writes, N server
// instances on consecutive ports sharing DATABASE_URL (PostgreSQL) and REDIS_URL, and nginx in
// front of them (proxy_buffering off for the live event stream). Mosquitto and nginx come from
// Debian's packages and are installed with apt-get when missing. Ctrl-C stops everything.
//
// Options: --instances N (default 2), --port P (nginx; instances on P+1..P+N, default 8080),
// --mqtt-port P (Mosquitto, default 1883), --dir DIR (configuration, logs, DATA_DIR; default
// data/cluster). Environment: DATABASE_URL (default postgres://postgres@127.0.0.1:5432/tinygs_cluster,
// created when missing), REDIS_URL (default redis://127.0.0.1:6379); every other server variable
// (SIMULATED_STATIONS, SMTP_URL, ...) is passed to the instances.
//
// The steps are exported for `npm run bench:cluster` (bench/src/cluster.ts), which starts the same
// shape with one and then two instances; main() runs only when this file is the program.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_DATABASE = 'postgres://postgres@127.0.0.1:5432/tinygs_cluster';
const USAGE = 'Usage: npm run cluster -- [--instances N] [--port P] [--mqtt-port P] [--dir DIR]';

/** Stops the start-up: what was started is stopped again (see the end of the file). */
function fail(message) {
  throw new Error(message);
}

function options() {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        instances: { type: 'string', default: '2' },
        port: { type: 'string', default: '8080' },
        'mqtt-port': { type: 'string', default: '1883' },
        dir: { type: 'string', default: join(ROOT, 'data/cluster') },
        help: { type: 'boolean', default: false },
      },
    }).values;
  } catch (err) {
    fail(`${err.message}\n${USAGE}`);
  }
  if (parsed.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const int = (name, min, max) => {
    const n = Number(parsed[name]);
    if (!Number.isInteger(n) || n < min || n > max)
      fail(`--${name} must be ${min}..${max}\n${USAGE}`);
    return n;
  };
  const instances = int('instances', 1, 32);
  const port = int('port', 1, 65535 - instances);
  return { instances, port, mqttPort: int('mqtt-port', 1, 65535), dir: resolve(parsed.dir) };
}

const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

/** Installs Debian packages for commands that are missing. */
export function ensure(packages) {
  const missing = Object.entries(packages).filter(([command]) => !has(command));
  if (missing.length === 0) return;
  const names = [...new Set(missing.flatMap(([, p]) => p))];
  const [command, ...prefix] = userInfo().uid === 0 ? ['apt-get'] : ['sudo', 'apt-get'];
  console.log(`Installing ${names.join(', ')} from Debian's packages...`);
  for (const args of [['update'], ['install', '-y', ...names]]) {
    const r = spawnSync(command, [...prefix, ...args], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (r.status !== 0)
      fail(`apt-get ${args.join(' ')} failed; install ${names.join(', ')} yourself`);
  }
}

/** The default database is created when missing; another DATABASE_URL must exist. */
function ensureDatabase(url) {
  if (url !== DEFAULT_DATABASE) return;
  const u = new URL(url);
  const name = u.pathname.slice(1);
  u.pathname = '/postgres';
  const exists = spawnSync(
    'psql',
    [u.toString(), '-tAc', `select 1 from pg_database where datname = '${name}'`],
    {
      encoding: 'utf8',
    },
  );
  if (exists.status !== 0)
    fail(`PostgreSQL at ${u.host} cannot be reached: ${exists.stderr.trim()}`);
  if (exists.stdout.trim() === '1') return;
  const created = spawnSync('psql', [u.toString(), '-c', `create database ${name}`], {
    encoding: 'utf8',
  });
  if (created.status !== 0) fail(`could not create database ${name}: ${created.stderr.trim()}`);
  console.log(`Created database ${name}.`);
}

export function accepting(port) {
  return new Promise((done) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

async function until(what, probe, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} did not come up in time`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const healthy = (url) => fetch(`${url}/healthz`).then((r) => r.ok);

export function nginxConfig({ dir, port, instancePorts }) {
  const n = join(dir, 'nginx');
  const temp = join(n, 'tmp');
  for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'])
    mkdirSync(join(temp, d), { recursive: true });
  const proxied = `
      proxy_pass http://tinygs;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;`;
  const file = join(n, 'nginx.conf');
  writeFileSync(
    file,
    `# Written by npm run cluster: nginx in front of ${instancePorts.length} TinyGS instance(s).
${userInfo().uid === 0 ? 'user root;\n' : ''}worker_processes 1;
pid ${join(n, 'nginx.pid')};
error_log ${join(dir, 'logs/nginx-error.log')} warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${join(temp, 'body')};
  proxy_temp_path ${join(temp, 'proxy')};
  fastcgi_temp_path ${join(temp, 'fastcgi')};
  uwsgi_temp_path ${join(temp, 'uwsgi')};
  scgi_temp_path ${join(temp, 'scgi')};
  # picture uploads are bounded by the server itself; this only has to let them through
  client_max_body_size 16m;
  upstream tinygs {
    least_conn;
${instancePorts.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=5s;`).join('\n')}
    keepalive 64;
  }
  server {
    listen ${port};
    # The live event stream: every event at once, and a stream may stay open for hours.
    location /sse/ {${proxied}
      proxy_buffering off;
      proxy_cache off;
      proxy_read_timeout 1h;
    }
    # Everything else, /pictures/ included: the server picks WebP or JPEG by Accept (Vary: Accept).
    location / {${proxied}
    }
  }
}
`,
  );
  return file;
}

const children = [];

export function start(name, command, args, { env, log }) {
  const out = createWriteStream(log, { flags: 'a' });
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  const entry = { name, child, log, stopping: false };
  child.on('exit', (code, signal) => {
    if (!entry.stopping) console.error(`${name} exited (${signal ?? code}); its log: ${log}`);
  });
  children.push(entry);
  return entry;
}

/** Stops one started process (nginx gracefully, the others with SIGTERM; SIGKILL after 15 s). */
export async function stop(entry) {
  if (entry.child.exitCode !== null || entry.child.signalCode !== null) return;
  entry.stopping = true;
  const exited = new Promise((r) => entry.child.once('exit', r));
  entry.child.kill(entry.name === 'nginx' ? 'SIGQUIT' : 'SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  if (entry.child.exitCode === null && entry.child.signalCode === null) entry.child.kill('SIGKILL');
}

export async function stopAll() {
  for (const entry of [...children].reverse()) await stop(entry);
}

/** The Debian packages the shape needs, installed when missing. */
export function ensureTools() {
  ensure({
    mosquitto: ['mosquitto'],
    mosquitto_ctrl: ['mosquitto-clients'],
    nginx: ['nginx'],
    psql: ['postgresql-client'],
  });
}

/** The environment every instance shares; SERVER_SECRET from DIR/server-secret unless set. */
export function sharedEnv({ dir, databaseUrl, redisUrl, lbUrl }) {
  for (const d of ['logs', 'data', 'mosquitto']) mkdirSync(join(dir, d), { recursive: true });
  // One secret for every instance (it encrypts the MQTT passwords and derives the broker's).
  const secretFile = join(dir, 'server-secret');
  if (!existsSync(secretFile))
    writeFileSync(secretFile, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
  return {
    ...process.env,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    DATA_DIR: join(dir, 'data'),
    SERVER_SECRET: process.env.SERVER_SECRET ?? readFileSync(secretFile, 'utf8').trim(),
    PUBLIC_URL: process.env.PUBLIC_URL ?? lbUrl,
    // nginx on this host is the one proxy: the client address comes from its X-Forwarded-For.
    TRUST_PROXY: '1',
    LOG_FORMAT: 'json',
  };
}

/** Runs the server's CLI (apps/server/src/cli/main.ts) with the shared environment. */
export function cli(args, env) {
  const tsx = join(ROOT, 'node_modules/.bin/tsx');
  const r = spawnSync(tsx, ['src/cli/main.ts', ...args], {
    cwd: join(ROOT, 'apps/server'),
    env,
    encoding: 'utf8',
  });
  if (r.status !== 0) fail(`${args.join(' ')} failed:\n${r.stderr || r.stdout}`);
  return r.stdout;
}

/** Mosquitto on the configuration `broker mosquitto-config` writes into DIR/mosquitto. */
export async function startBroker({ dir, mqttPort, env }) {
  console.log('Writing the Mosquitto configuration (npm run cli -- broker mosquitto-config)...');
  const broker = JSON.parse(
    cli(
      [
        'broker',
        'mosquitto-config',
        '--dir',
        join(dir, 'mosquitto'),
        '--port',
        String(mqttPort),
        '--json',
      ],
      env,
    ),
  );
  if (await accepting(mqttPort))
    fail(`port ${mqttPort} is taken: stop what listens there or pass --mqtt-port`);
  const entry = start('mosquitto', 'mosquitto', ['-c', broker.config], {
    env: process.env,
    log: join(dir, 'logs/mosquitto.log'),
  });
  await until('Mosquitto', () => accepting(mqttPort), 15_000);
  return { ...broker, entry };
}

/** Instance `id` on PORT, ingesting from the broker; resolves once it answers /healthz. */
export async function startInstance({ id, port, env, brokerUrl, dir }) {
  if (await accepting(port)) fail(`port ${port} is taken: pass another --port`);
  const entry = start(id, process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    env: {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      INSTANCE_ID: id,
      MQTT_BROKER_URL: brokerUrl,
    },
    log: join(dir, `logs/${id}.log`),
  });
  await until(id, () => {
    if (entry.child.exitCode !== null) fail(`${id} exited; its log: ${entry.log}`);
    return healthy(`http://127.0.0.1:${port}`);
  });
  return entry;
}

/** nginx on PORT in front of the instance ports; resolves once /healthz answers through it. */
export async function startNginx({ dir, port, instancePorts }) {
  if (await accepting(port)) fail(`port ${port} is taken: pass another --port`);
  const conf = nginxConfig({ dir, port, instancePorts });
  const test = spawnSync('nginx', ['-t', '-c', conf, '-p', join(dir, 'nginx')], {
    encoding: 'utf8',
  });
  if (test.status !== 0) fail(`nginx refused its configuration:\n${test.stderr}`);
  const entry = start(
    'nginx',
    'nginx',
    ['-c', conf, '-p', join(dir, 'nginx'), '-g', 'daemon off;'],
    {
      env: process.env,
      log: join(dir, 'logs/nginx.log'),
    },
  );
  await until('nginx', () => healthy(`http://127.0.0.1:${port}`), 15_000);
  return entry;
}

async function main() {
  const { instances, port, mqttPort, dir } = options();
  const databaseUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE;
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  if (!/^postgres(ql)?:\/\//.test(databaseUrl)) fail('DATABASE_URL must be a postgres:// URL');
  ensureTools();
  ensureDatabase(databaseUrl);
  const lbUrl = `http://localhost:${port}`;
  const base = sharedEnv({ dir, databaseUrl, redisUrl, lbUrl });
  const broker = await startBroker({ dir, mqttPort, env: base });

  console.log('Migrating the database...');
  cli(['migrate', '--json'], base);

  const instancePorts = Array.from({ length: instances }, (_, i) => port + 1 + i);
  // The first one alone: it seeds an empty catalogue before the others look.
  const [first, ...others] = instancePorts.map((p, i) => ({ id: `cluster-${i + 1}`, port: p }));
  const startOne = (x) => startInstance({ ...x, env: base, brokerUrl: broker.url, dir });
  if (first) await startOne(first);
  await Promise.all(others.map(startOne));
  await startNginx({ dir, port, instancePorts });

  const brokerAt = `mqtt://127.0.0.1:${mqttPort}`;
  console.log(`
TinyGS cluster up: ${instances} instance(s), Mosquitto, Redis, PostgreSQL, nginx
  web app and API (nginx)   ${lbUrl}
${instancePorts.map((p, i) => `  instance cluster-${i + 1}        http://127.0.0.1:${p}   log ${join(dir, `logs/cluster-${i + 1}.log`)}`).join('\n')}
  stations (Mosquitto)      ${brokerAt}   (log ${join(dir, 'logs/mosquitto.log')})
  PostgreSQL                ${databaseUrl.replace(/\/\/[^@/]*@/, '//…@')}
  Redis                     ${redisUrl.replace(/\/\/[^@/]*@/, '//…@')}
  more stations             npm run simulate -- --stations 20 --broker ${brokerAt} --api ${lbUrl}
Ctrl-C stops everything.`);
}

let shuttingDown = false;
async function shutdown(code) {
  if (shuttingDown) return;
  shuttingDown = true;
  console.log('\nStopping the cluster...');
  await stopAll();
  process.exit(code);
}
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  main().catch(async (err) => {
    console.error(err instanceof Error ? err.message : err);
    await shutdown(1);
  });
}
