// The satellite catalogue as the network part uses it: looked up by name or NORAD on every frame,
// so it is held in memory with parsed TLEs and configurations, and reloaded periodically so that
// TLE updates and new satellites reach the ingest without a restart.
import { ModemConfSchema, type ModemConf } from '@tinygs/contracts';
import { SATELLITE_FORMATS, registerSatellite } from '@tinygs/decoders';
import { parseTle, type Tle } from '@tinygs/orbit';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../../db/schema';
import { loadNetworkSatellites, type NetworkSatelliteRow } from '../../repositories/packets';

export interface NetworkSatellite {
  name: string;
  /** the name as UTF-8, hashed with every frame (frame identity) */
  nameBytes: Buffer;
  displayName: string;
  norad: number | null;
  status: string;
  /** valid modem configurations; the first is the default */
  configurations: ModemConf[];
  /** null when the catalogue has no (valid) TLE: balloons, future satellites */
  tle: Tle | null;
  /** its CRC-passing frames are queued for SatNOGS DB (forwarding on, opted in, NORAD id known) */
  forwardToSatnogs?: boolean;
}

/** A refresh forced by an unknown name happens at most this often. */
const MISS_REFRESH_MIN_MS = 5_000;

export class SatelliteCatalogue {
  private byNameMap = new Map<string, NetworkSatellite>();
  private byNoradMap = new Map<number, NetworkSatellite>();
  private lastRefreshAt = 0;
  private refreshing: Promise<void> | null = null;
  private readonly registeredDecoders = new Map<string, string>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: Logger,
    /** SATNOGS_DB_URL is set: opted-in satellites are forwarded */
    private readonly satnogsForwarding = false,
  ) {}

  all(): NetworkSatellite[] {
    return [...this.byNameMap.values()];
  }

  find(name: string, norad: number | null): NetworkSatellite | undefined {
    return this.byNameMap.get(name) ?? (norad === null ? undefined : this.byNoradMap.get(norad));
  }

  /** Reloads from storage and registers each satellite's decoder (issue: decoders follow the catalogue). */
  async refresh(): Promise<void> {
    this.refreshing ??= this.load().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** An unknown satellite may just have been added: reload soon, but not on every bad frame. */
  refreshAfterMiss(now = Date.now()): void {
    if (now - this.lastRefreshAt < MISS_REFRESH_MIN_MS) return;
    this.lastRefreshAt = now;
    this.refresh().catch((err: unknown) =>
      this.log.warn({ err }, 'satellite catalogue refresh failed'),
    );
  }

  private async load(): Promise<void> {
    const rows = await loadNetworkSatellites(this.db);
    this.lastRefreshAt = Date.now();
    const byName = new Map<string, NetworkSatellite>();
    const byNorad = new Map<number, NetworkSatellite>();
    for (const row of rows) {
      const sat = this.toNetworkSatellite(row);
      byName.set(sat.name, sat);
      if (sat.norad !== null && !byNorad.has(sat.norad)) byNorad.set(sat.norad, sat);
      this.registerDecoder(row);
    }
    this.byNameMap = byName;
    this.byNoradMap = byNorad;
  }

  private registerDecoder(row: NetworkSatelliteRow): void {
    // Real satellites have their format built in; the catalogue's name for it does not matter.
    if (
      !row.decoder ||
      SATELLITE_FORMATS[row.name] ||
      this.registeredDecoders.get(row.name) === row.decoder
    )
      return;
    try {
      registerSatellite(row.name, row.decoder);
      this.registeredDecoders.set(row.name, row.decoder);
    } catch (err) {
      // A catalogue typo must not stop the network; the satellite's frames stay undecoded.
      this.registeredDecoders.set(row.name, row.decoder);
      this.log.warn({ err, satellite: row.name, decoder: row.decoder }, 'decoder not registered');
    }
  }

  private toNetworkSatellite(row: NetworkSatelliteRow): NetworkSatellite {
    let tle: Tle | null = null;
    if (row.tle) {
      try {
        const lines: unknown = JSON.parse(row.tle);
        if (
          Array.isArray(lines) &&
          lines.length === 3 &&
          lines.every((l) => typeof l === 'string')
        ) {
          tle = parseTle([lines[0] as string, lines[1] as string, lines[2] as string]);
        }
      } catch (err) {
        this.log.warn({ err, satellite: row.name }, 'satellite TLE not usable');
      }
    }
    let configurations: ModemConf[] = [];
    try {
      const list: unknown = JSON.parse(row.configurations);
      if (Array.isArray(list)) {
        configurations = list.flatMap((c: unknown) => {
          const parsed = ModemConfSchema.safeParse(c);
          return parsed.success ? [parsed.data] : [];
        });
      }
    } catch (err) {
      this.log.warn({ err, satellite: row.name }, 'satellite configurations not usable');
    }
    return {
      name: row.name,
      nameBytes: Buffer.from(row.name, 'utf8'),
      displayName: row.displayName,
      norad: row.norad,
      status: row.status,
      configurations,
      tle,
      forwardToSatnogs: this.satnogsForwarding && row.satnogsForward === 1 && row.norad !== null,
    };
  }
}
