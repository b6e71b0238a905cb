// The catalogue reads: which satellites each list holds (retired ones apart, the live map's ones
// in orbit), one satellite's detail, the world map and the element-set files.
import type { SatelliteDetail, SatellitesQuery, WorldmapSatellite } from '@tinygs/contracts';
import type { AppContext } from '../../context';
import { notFound } from '../../http/errors';
import { readCounters } from '../../repositories/counters';
import {
  findSatellite,
  lastTelemetry,
  listSatellites,
} from '../../repositories/public/catalogue-reads';
import { elementSetLines, toSatellite, toSatelliteDetail, toWorldmapEntry } from './mapper';

const INACTIVE = ['Inactive', 'BInactive'];
/** Not in orbit (yet, or any more): nothing to draw on the live map. */
const NOT_ON_MAP = ['Inactive', 'BInactive', 'Future', 'BFuture'];

export function catalogueService(ctx: AppContext) {
  const db = ctx.database.db;

  /** Element-set files: three lines per satellite with a usable element set, LF line endings. */
  const elementSets = async (excludeStatuses: readonly string[]): Promise<string> => {
    const rows = await listSatellites(db, { excludeStatuses });
    return rows.flatMap((r) => elementSetLines(r) ?? []).join('');
  };

  return {
    /** Network totals: members, online stations, packets. */
    async statistics() {
      const c = await readCounters(db);
      return { members: c.members, stations: c.stations, packets: c.packets };
    },

    /** Satellites not retired, or exactly one status; serialised. */
    async satellites(status: SatellitesQuery['status']): Promise<string> {
      const rows = await listSatellites(db, status ? { status } : { excludeStatuses: INACTIVE });
      return JSON.stringify(rows.map((r) => toSatellite(r)));
    },

    /** Retired satellites, serialised. */
    async retiredSatellites(): Promise<string> {
      const rows = await listSatellites(db, { status: 'Inactive' });
      return JSON.stringify(rows.map((r) => toSatellite(r)));
    },

    async satellite(name: string): Promise<SatelliteDetail> {
      const row = await findSatellite(db, name);
      if (!row) throw notFound(`Unknown satellite: ${name}`);
      return toSatelliteDetail(row, await lastTelemetry(db, name));
    },

    async worldmap(): Promise<WorldmapSatellite[]> {
      const now = Date.now();
      const rows = await listSatellites(db, { excludeStatuses: NOT_ON_MAP });
      return rows.map((r) => toWorldmapEntry(r, now));
    },

    /** Satellites not retired. */
    tles: () => elementSets(INACTIVE),
    /** The satellites the network listens to: those on the live map. */
    supportedTles: () => elementSets(NOT_ON_MAP),
  };
}
