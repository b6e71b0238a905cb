// The packet lists: the latest of a satellite or of all (kept built, read-models/latest-packets.ts),
// a station's packets page by page, and a retired satellite's history. A station's packets are
// public through /v2/packets (tools poll a busy station page back); the web app's /v1/packets
// gives visitors the first page and only the owner the older ones (SPEC.md section 6).
import {
  INACTIVE_PACKETS_SHOWN,
  PACKETS_PAGE_SIZE,
  type PacketsInaResponse,
} from '@tinygs/contracts';
import type { AppContext } from '../../context';
import { notFound, unauthorized } from '../../http/errors';
import { latestPacketsOf } from '../../read-models/latest-packets';
import { findSatellite, templatesOf } from '../../repositories/public/catalogue-reads';
import {
  countPacketsUpTo,
  firstPackets,
  latestPackets,
  stationPackets,
} from '../../repositories/public/packet-reads';
import { findStation } from '../../repositories/public/station-reads';
import type { PreparedBody } from '../http-cache';
import { toInactiveHistory, toPacketsV2 } from './mapper';
import { toPacket } from '../wire';

export function packetsService(ctx: AppContext) {
  const db = ctx.database.db;
  const latest = latestPacketsOf(ctx);

  async function requireSatellite(name: string) {
    const row = await findSatellite(db, name);
    if (!row) throw notFound(`Unknown satellite: ${name}`);
    return row;
  }

  return {
    /** The latest packets of a satellite (null: of all), built once for every visitor. */
    async latest(satellite: string | null): Promise<PreparedBody> {
      const doc = await latest.document(satellite);
      if (!doc) throw notFound(`Unknown satellite: ${satellite}`);
      return doc;
    },

    /** A station's packets before `before` (null: the newest), serialised; public. */
    async stationPage(station: string, before: number | null, limit: number): Promise<string> {
      if (!(await findStation(db, station))) throw notFound(`Unknown station: ${station}`);
      const rows = await stationPackets(db, station, before, limit);
      const templates = await templatesOf(db, [...new Set(rows.map((r) => r.satellite))]);
      return JSON.stringify(toPacketsV2(rows, templates));
    },

    /**
     * A station's packets for the web app, serialised: the first page for anyone, older pages
     * (`before`) for its owner only. `caller` resolves the signed-in user, asked only then.
     */
    async stationHistory(
      stationName: string,
      before: number | null,
      caller: () => Promise<string | undefined>,
    ): Promise<string> {
      const station = await findStation(db, stationName);
      if (!station) throw notFound(`Unknown station: ${stationName}`);
      if (before !== null && (await caller()) !== station.userId)
        throw unauthorized('Sign in as the station owner to load more packets');
      const rows = await stationPackets(db, station.id, before, PACKETS_PAGE_SIZE);
      return JSON.stringify(rows.map(toPacket));
    },

    /** A retired satellite: its latest packets, and its first ones when it has more. */
    async inactiveHistory(satellite: string): Promise<PacketsInaResponse> {
      const sat = await requireSatellite(satellite);
      const newest = await latestPackets(db, sat.name, INACTIVE_PACKETS_SHOWN);
      const more =
        (await countPacketsUpTo(db, sat.name, INACTIVE_PACKETS_SHOWN + 1)) > INACTIVE_PACKETS_SHOWN;
      const first = more ? await firstPackets(db, sat.name, INACTIVE_PACKETS_SHOWN) : undefined;
      return toInactiveHistory(sat, newest, first);
    },
  };
}
