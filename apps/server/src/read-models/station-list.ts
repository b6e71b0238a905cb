// The station list as GET /v1/stations serves it: every station with fresh rows, read in one
// statement, serialised and compressed once per build and shared by every visitor. A build is
// dropped by `stations-changed` and then made by the next request, which waits for it (its answer
// never predates the event); while events keep coming the list is rebuilt at most once a second
// and requests meanwhile get the newest build at once. Changes that come without an event (pings
// updating lastSeen) show within LIST_TTL_MS.
//
// The live list of the event stream (live-station-list.ts) takes its rows from the same read when
// one began after every change it has to read: one read per change serves both.
import type { StationListItem } from '@tinygs/contracts';
import type { AppContext } from '../context';
import { DocumentCache } from '../public-api/document-cache';
import { PreparedBody } from '../public-api/http-cache';
import { listStationListItems } from '../repositories/stations';
import { perContext } from '../lib/per-context';
import { nextTick, type FullReads } from './read-order';

/** Changes without an event (pings updating lastSeen) show within this time. */
const LIST_TTL_MS = 2_000;
/**
 * While the network is live every batch of receptions changes some station: the list is rebuilt
 * at most this often then (and at once after a quiet spell), so a change shows within about it.
 */
export const STATION_LIST_MIN_REBUILD_MS = 1_000;

/** One build of the list: its rows and the whole list ready to send. */
export interface StationListBuild {
  /** ordered by station id; shared, never changed */
  readonly items: readonly StationListItem[];
  readonly all: PreparedBody;
}

interface FullRead {
  /** when the read began, in read order (read-order.ts) */
  startedAt: number;
  items: Promise<readonly StationListItem[]>;
}

export class StationListReadModel implements FullReads {
  private readonly cache = new DocumentCache<'all', StationListBuild>(LIST_TTL_MS, 1, {
    minRebuildMs: STATION_LIST_MIN_REBUILD_MS,
  });
  private newestRead: FullRead | null = null;

  constructor(private readonly ctx: AppContext) {
    ctx.events.subscribe('stations-changed', () => this.cache.invalidateAll());
  }

  /** The list as GET /v1/stations sends it (built when a change or the TTL made it stale). */
  current(): Promise<StationListBuild> {
    return this.cache.get('all', async () => {
      const items = await this.readAll();
      return { items, all: await PreparedBody.of(JSON.stringify(items)) };
    });
  }

  /**
   * The rows of the newest full read (finished or under way) if it began after `since` (a time of
   * read-order.ts), else null: the caller reads for itself.
   */
  rowsReadAfter(since: number): Promise<readonly StationListItem[]> | null {
    const read = this.newestRead;
    return read && read.startedAt > since ? read.items : null;
  }

  private readAll(): Promise<readonly StationListItem[]> {
    const read: FullRead = {
      startedAt: nextTick(),
      items: listStationListItems(this.ctx.database.db),
    };
    this.newestRead = read;
    // A failed read is not offered to anyone.
    read.items.catch(() => {
      if (this.newestRead === read) this.newestRead = null;
    });
    return read.items;
  }
}

/** The one station list of this context, shared by the routes and the event stream. */
export const stationListOf = perContext((ctx) => new StationListReadModel(ctx));
