// The station list as GET /v1/stations serves it: every station with fresh rows, ordered by id,
// serialised once per build and shared by every visitor. The list is kept as one JSON fragment
// per station and patched from the events that name stations: a build re-reads only the stations
// named since the build before (`stations-changed`: receptions, status, settings; `stations-seen`:
// pings' last-seen time), serialises those again and joins the fragments. While the
// network is live a build then reads a few hundred rows rather than every station.
//
// The whole list is read again when more than MAX_TARGETED_IDS stations were named, and at least
// every FULL_READ_MS: that is how changes made without an event show (a satellite's display name
// changed in the catalogue, an operator's direct write).
//
// A build is dropped by those events and then made by the next request, which waits for it (its
// answer never predates the event); while events keep coming the list is rebuilt at most once a
// second and requests meanwhile get the newest build at once.
//
// The live list of the event stream (live-station-list.ts) takes its rows from a build here when
// one began after every change it has to read: one read per change serves both.
import { formatStationId, type StationListItem } from '@tinygs/contracts';
import type { AppContext } from '../context';
import { DocumentCache } from '../public-api/document-cache';
import { PreparedBody } from '../public-api/http-cache';
import { listStationListItems } from '../repositories/stations';
import { perContext } from '../lib/per-context';
import { nextTick, type SharedReads } from './read-order';

/** The whole list is read again at least this often (changes that come without an event). */
export const STATION_LIST_FULL_READ_MS = 10_000;
/**
 * While the network is live every batch of receptions changes some station: the list is rebuilt
 * at most this often then (and at once after a quiet spell), so a change shows within about it.
 */
export const STATION_LIST_MIN_REBUILD_MS = 1_000;
/** More stations named than this between two builds are read as one full read. */
const MAX_TARGETED_IDS = 2_000;

/** One build of the list: its rows and the whole list ready to send. */
export interface StationListBuild {
  /** ordered by station id; shared, never changed */
  readonly items: readonly StationListItem[];
  readonly all: PreparedBody;
}

/** A build as others may take its rows (SharedReads). */
interface BuildRead {
  /** when its read began, in read order (read-order.ts) */
  startedAt: number;
  /** it read every station (else only those named before it began) */
  full: boolean;
  /** settles once what it read is applied */
  applied: Promise<void>;
}

/** One station as the list holds it: its row and that row serialised. */
interface Fragment {
  item: StationListItem;
  json: string;
}

export class StationListReadModel implements SharedReads {
  private readonly cache = new DocumentCache<'all', StationListBuild>(
    STATION_LIST_FULL_READ_MS,
    1,
    { minRebuildMs: STATION_LIST_MIN_REBUILD_MS },
  );
  private newestRead: BuildRead | null = null;
  private readonly fragments = new Map<string, Fragment>();
  /** the fragments' ids in list order; null once a station came or went */
  private order: string[] | null = null;
  /** stations named since the last build; `all` before the first one and past MAX_TARGETED_IDS */
  private dirty: Set<string> | 'all' = 'all';
  /** when (performance.now) the newest full read that was applied began */
  private fullReadAt = -Infinity;
  /** the build under way: builds run one at a time, each applying what it read in turn */
  private building: Promise<unknown> = Promise.resolve();
  /** the newest build made */
  private latest: StationListBuild | null = null;
  /** the fragments changed since `latest` was made (a build that failed may have applied them) */
  private unbuilt = false;
  /** builds that read every station, and those that read only the stations named */
  readonly builds = { full: 0, targeted: 0 };

  constructor(private readonly ctx: AppContext) {
    const named = ({ stationIds }: { stationIds: string[] }) => {
      this.markChanged(stationIds);
      this.cache.invalidateAll();
    };
    ctx.events.subscribe('stations-changed', named);
    ctx.events.subscribe('stations-seen', named);
  }

  /** The list as GET /v1/stations sends it (built when a change or the TTL made it stale). */
  current(): Promise<StationListBuild> {
    return this.cache.get('all', () => {
      const build = this.building.then(() => this.build());
      this.building = build.catch(() => undefined);
      return build;
    });
  }

  /**
   * The stations `ids` as the newest build (finished or under way) read them, if it began after
   * `since` (a time of read-order.ts), else null. Such a build read every station named before it
   * began, and earlier builds the others since their last change: the fragments hold reads made
   * after every change named before `since`. All the stations need a full read (changes without an
   * event are taken on trust only from one).
   */
  rowsReadAfter(
    since: number,
    ids: ReadonlySet<string> | 'all',
  ): Promise<readonly StationListItem[]> | null {
    const read = this.newestRead;
    if (!read || read.startedAt <= since || (ids === 'all' && !read.full)) return null;
    return read.applied.then(() => {
      if (ids === 'all') return [...this.fragments.values()].map((f) => f.item);
      const items: StationListItem[] = [];
      for (const id of ids) {
        const fragment = this.fragments.get(id);
        if (fragment) items.push(fragment.item);
      }
      return items;
    });
  }

  private markChanged(ids: readonly string[]): void {
    if (this.dirty === 'all') return;
    for (const id of ids) this.dirty.add(id);
    if (this.dirty.size > MAX_TARGETED_IDS) this.dirty = 'all';
  }

  private async build(): Promise<StationListBuild> {
    const startedAt = performance.now();
    const taken = this.dirty;
    const full = taken === 'all' || startedAt - this.fullReadAt >= STATION_LIST_FULL_READ_MS;
    /** the stations this build reads */
    const reading = full ? 'all' : taken;
    this.dirty = new Set();
    let applied!: () => void;
    let failed!: (err: unknown) => void;
    const read: BuildRead = {
      startedAt: nextTick(),
      full,
      applied: new Promise((resolve, reject) => {
        applied = resolve;
        failed = reject;
      }),
    };
    // Whoever takes its rows handles its failure; nobody may have.
    read.applied.catch(() => undefined);
    this.newestRead = read;
    let rows: readonly StationListItem[];
    try {
      rows = await listStationListItems(
        this.ctx.database.db,
        reading === 'all' ? undefined : [...reading],
      );
    } catch (err) {
      // Nothing was applied: the same stations are read again next time, and the failed read is
      // offered to nobody else.
      if (taken === 'all') this.dirty = 'all';
      else this.markChanged([...taken]);
      if (this.newestRead === read) this.newestRead = null;
      failed(err);
      throw err;
    }
    if (full) this.fullReadAt = startedAt;
    this.builds[full ? 'full' : 'targeted'] += 1;
    if (this.apply(rows, reading)) this.unbuilt = true;
    applied();
    const previous = this.latest;
    if (!this.unbuilt && previous) return previous;
    this.order ??= [...this.fragments.keys()].sort();
    const items: StationListItem[] = [];
    const parts: string[] = [];
    for (const id of this.order) {
      const fragment = this.fragments.get(id) as Fragment;
      items.push(fragment.item);
      parts.push(fragment.json);
    }
    // Requests meanwhile get the previous build, already compressed.
    const all = await PreparedBody.replacing(previous?.all, `[${parts.join(',')}]`);
    this.latest = { items, all };
    this.unbuilt = false;
    return this.latest;
  }

  /**
   * Applies the rows read of the stations `read` (every station, or those named): a row replaces
   * its station's fragment when it serialises differently, a station read but not found is gone.
   * True when the list changed.
   */
  private apply(rows: readonly StationListItem[], read: Set<string> | 'all'): boolean {
    let changed = false;
    const found = new Set<string>();
    for (const item of rows) {
      const id = formatStationId(item.name, item.userId);
      found.add(id);
      const json = JSON.stringify(item);
      const before = this.fragments.get(id);
      if (before?.json === json) continue;
      if (!before) this.order = null;
      this.fragments.set(id, { item, json });
      changed = true;
    }
    for (const id of read === 'all' ? [...this.fragments.keys()] : read) {
      if (found.has(id) || !this.fragments.delete(id)) continue;
      this.order = null;
      changed = true;
    }
    return changed;
  }
}

/** The one station list of this context, shared by the routes and the event stream. */
export const stationListOf = perContext((ctx) => new StationListReadModel(ctx));
