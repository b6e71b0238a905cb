// The latest packets of each satellite ('' = of all of them) as GET /v2/packets sends them: built
// once, with their br and gzip bodies and ETag, for every visitor. An entry is dropped when a
// packet of its satellite is stored (`new-packet`) and rebuilt by the next request, which waits
// for it after a quiet spell; while packets keep coming each list is rebuilt at most twice a
// second. CRC-error packets are stored without an event and show within LATEST_TTL_MS.
import { PACKETS_PAGE_SIZE } from '@tinygs/contracts';
import type { AppContext } from '../context';
import { DocumentCache } from '../public-api/document-cache';
import { PreparedBody } from '../public-api/http-cache';
import { toPacketsV2 } from '../public-api/packets/mapper';
import { findSatellite, templatesOf } from '../repositories/public/catalogue-reads';
import { latestPackets } from '../repositories/public/packet-reads';
import { perContext } from '../lib/per-context';

/** CRC-error packets are stored without an event; they show within this time. */
const LATEST_TTL_MS = 2_000;
/**
 * A busy network stores packets many times a second: each list is rebuilt at most this often then
 * (and at once after a quiet spell), so a new packet shows within about it.
 */
export const PACKET_LIST_MIN_REBUILD_MS = 500;
/** One entry per satellite of the catalogue (and one for all of them). */
const LATEST_MAX_ENTRIES = 2_000;

/** Thrown by a build for a satellite the catalogue does not have: nothing is kept. */
class UnknownSatellite extends Error {}

export class LatestPacketsReadModel {
  private readonly cache = new DocumentCache<string, PreparedBody>(
    LATEST_TTL_MS,
    LATEST_MAX_ENTRIES,
    { minRebuildMs: PACKET_LIST_MIN_REBUILD_MS },
  );

  constructor(private readonly ctx: AppContext) {
    ctx.events.subscribe('new-packet', (event) => {
      this.cache.invalidate(event.satelliteName);
      this.cache.invalidate('');
    });
  }

  /** The newest packets of `satellite` (null: of all), or null for an unknown satellite. */
  async document(satellite: string | null): Promise<PreparedBody | null> {
    try {
      return await this.cache.get(satellite ?? '', () => this.build(satellite));
    } catch (err) {
      if (err instanceof UnknownSatellite) return null;
      throw err;
    }
  }

  private async build(satellite: string | null): Promise<PreparedBody> {
    const db = this.ctx.database.db;
    const sat = satellite ? await findSatellite(db, satellite) : null;
    if (satellite && !sat) throw new UnknownSatellite(satellite);
    const rows = await latestPackets(db, satellite, PACKETS_PAGE_SIZE);
    // One satellite's packets need only its own template, already read with it.
    const templates = sat
      ? rows.length > 0
        ? { [sat.name]: sat.webTemplate }
        : {}
      : await templatesOf(db, [...new Set(rows.map((r) => r.satellite))]);
    // Most rebuilds past the TTL (every satellite's list every two seconds while it is asked
    // for) read what the kept list already holds: it is then kept as it is.
    // Requests meanwhile get the previous list, already compressed.
    return PreparedBody.replacing(
      this.cache.latest(satellite ?? ''),
      JSON.stringify(toPacketsV2(rows, templates)),
    );
  }
}

/** The latest-packet lists of this context. */
export const latestPacketsOf = perContext((ctx) => new LatestPacketsReadModel(ctx));
