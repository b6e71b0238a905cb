// Where the simulator gets its satellites and its owners' broker credentials: from the running
// server's own storage when it runs inside it, or through the public API and the admin CLI when it
// runs as a separate process against a server elsewhere.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ModemConfSchema, type ModemConf } from '@tinygs/contracts';
import { parseTle, type Tle } from '@tinygs/orbit';
import { z } from 'zod';
import { ensureUserByEmail, mqttCredentialsOf } from '../accounts/users';
import { REPO_ROOT } from '../config';
import type { AppContext } from '../context';
import type { NetworkSatellite } from '../network/ingest/catalogue';
import { balloonTrack, TRANSMITTING_STATUSES, txPowerFor, type SimSatellite } from './sky';
import type { StationCredentials } from './virtual-station';

function toSimSatellite(s: {
  name: string;
  norad: number | null;
  status: string;
  configurations: ModemConf[];
  tle: Tle | null;
}): SimSatellite | null {
  const config = s.configurations[0];
  const norad = s.norad ?? config?.NORAD ?? null;
  if (!config || norad === null || !TRANSMITTING_STATUSES.has(s.status)) return null;
  const balloon = s.status === 'Balloon' && !s.tle ? balloonTrack(s.name) : null;
  if (!s.tle && !balloon) return null;
  return {
    name: s.name,
    norad,
    status: s.status,
    config,
    tle: s.tle,
    balloon,
    txPowerMw: txPowerFor(s.name),
  };
}

export function simSatellitesFromCatalogue(
  satellites: readonly NetworkSatellite[],
): SimSatellite[] {
  return satellites.flatMap((s) => toSimSatellite(s) ?? []);
}

/** In-process: owners are created (or found) through the accounts code, in the same storage. */
export async function credentialsInProcess(
  ctx: AppContext,
  emails: readonly string[],
): Promise<Map<string, StationCredentials>> {
  const out = new Map<string, StationCredentials>();
  for (const email of new Set(emails)) {
    const { user } = await ensureUserByEmail(ctx, email, { emailVal: true });
    out.set(email, mqttCredentialsOf(ctx, user));
  }
  return out;
}

const run = promisify(execFile);
const CliUserSchema = z.object({ userId: z.string() });
const CliMqttSchema = z.object({ user: z.string(), pass: z.string() });

async function cli(args: string[]): Promise<unknown> {
  const { stdout } = await run('npm', ['run', '--silent', 'cli', '--', ...args, '--json'], {
    cwd: REPO_ROOT,
    maxBuffer: 1024 * 1024,
  });
  const line = stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(line);
}

/** External: owners are created with the admin CLI (`user add`, `user mqtt`) on this machine. */
export async function credentialsViaCli(
  emails: readonly string[],
): Promise<Map<string, StationCredentials>> {
  const out = new Map<string, StationCredentials>();
  for (const email of new Set(emails)) {
    CliUserSchema.parse(await cli(['user', 'add', '--email', email]));
    out.set(email, CliMqttSchema.parse(await cli(['user', 'mqtt', '--email', email])));
  }
  return out;
}

const SIMULATED_STATUSES = ['Supported', 'SupportedSL', 'Surveillance', 'Balloon'];

/** External: satellites from GET /v1/satellites?status=... and their TLEs from GET /v1/tles.txt. */
export async function satellitesViaApi(apiUrl: string): Promise<SimSatellite[]> {
  const tlesByNorad = new Map<number, Tle>();
  const tleResponse = await fetch(`${apiUrl}/v1/tles.txt`).catch((err: unknown) => {
    throw new Error(
      `Cannot reach the API at ${apiUrl} (${err instanceof Error ? err.message : String(err)}); is the server running? Use --api to point elsewhere.`,
    );
  });
  if (!tleResponse.ok) throw new Error(`GET ${apiUrl}/v1/tles.txt answered ${tleResponse.status}`);
  const lines = (await tleResponse.text()).split(/\r?\n/);
  for (let i = 0; i + 2 < lines.length; i += 1) {
    if (!lines[i + 1]?.startsWith('1 ') || !lines[i + 2]?.startsWith('2 ')) continue;
    try {
      const tle = parseTle([lines[i] ?? '', lines[i + 1] ?? '', lines[i + 2] ?? '']);
      tlesByNorad.set(tle.noradId, tle);
      i += 2;
    } catch {
      // a broken record is skipped, not guessed
    }
  }
  const out: SimSatellite[] = [];
  for (const status of SIMULATED_STATUSES) {
    const res = await fetch(`${apiUrl}/v1/satellites?status=${status}`);
    if (!res.ok)
      throw new Error(`GET ${apiUrl}/v1/satellites?status=${status} answered ${res.status}`);
    const list = z
      .array(
        z.looseObject({
          name: z.string(),
          status: z.string(),
          configurations: z.array(z.unknown()).default([]),
        }),
      )
      .parse(await res.json());
    for (const item of list) {
      if (item.status !== status) continue;
      const configurations = item.configurations.flatMap((c) => {
        const parsed = ModemConfSchema.safeParse(c);
        return parsed.success ? [parsed.data] : [];
      });
      const norad = configurations[0]?.NORAD ?? null;
      const sim = toSimSatellite({
        name: item.name,
        norad,
        status,
        configurations,
        tle: norad === null ? null : (tlesByNorad.get(norad) ?? null),
      });
      if (sim) out.push(sim);
    }
  }
  return out;
}
