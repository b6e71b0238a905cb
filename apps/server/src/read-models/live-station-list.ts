// The station list as the live maps know it, kept in memory for the `stations` live event and its
// delta form. A station is re-read only when the event bus names it (`stations-changed`), and it
// counts as changed only when something a map shows changed: it appeared or went away, or its
// name, location, status (online/offline) or satellite did. Receptions and pings alone (lastSeen,
// lastPacketTime, counters) change nothing here: the entry keeps the item read at the station's last
// map change, so the full list at version `seq` is exactly what a client holds after applying every
// delta up to `seq`. GET /v1/stations answers with fresh rows (station-list.ts).
//
// The stations named since the last refresh are read by id; when a build of the list GET
// /v1/stations sends began after the last of those changes (and, for every station, was a full
// read), its rows are taken instead of a read of our own.
import { formatStationId, stationShownFields, type StationListItem } from '@tinygs/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { listStationListItems } from '../repositories/stations';
import { nextTick, type SharedReads } from './read-order';

/** One published version of the list: what changed since the version before. */
export interface StationListChange {
  seq: number;
  changed: StationListItem[];
  /** ids `{name}@{userId}` */
  removed: string[];
}

interface Entry {
  item: StationListItem;
  /** what a map draws of it */
  shown: string;
}

/** The fields a map draws; name and userId are the identity. */
const shownOf = stationShownFields;

export class StationListModel {
  private entries = new Map<string, Entry>();
  /** stations to re-read; `all` before the first load and past `maxTargetedIds` */
  private dirty: Set<string> | 'all' = 'all';
  private loadedSeq = 0;
  private ordered: StationListItem[] | null = null;
  /** when (read-order.ts) the newest station was named, or everything marked */
  private markedAt = 0;
  /** refreshes that took the rows of a read made for others */
  readsTaken = 0;

  constructor(
    private readonly db: Kysely<Database>,
    /** reads made for others, taken when they began after the newest change */
    private readonly shared: SharedReads | null = null,
    /** more dirty stations than this are re-read as one full read */
    private readonly maxTargetedIds = 1_000,
  ) {}

  /** The version of the list in memory; 0 before the first load. */
  get seq(): number {
    return this.loadedSeq;
  }

  get loaded(): boolean {
    return this.loadedSeq > 0;
  }

  /** A station was named since the last refresh, or the list was never loaded. */
  get stale(): boolean {
    return this.dirty === 'all' || this.dirty.size > 0;
  }

  /** Stations the event bus named as changed: re-read at the next refresh. */
  markChanged(ids: readonly string[]): void {
    this.markedAt = nextTick();
    if (this.dirty === 'all') return;
    for (const id of ids) this.dirty.add(id);
    if (this.dirty.size > this.maxTargetedIds) this.dirty = 'all';
  }

  /**
   * The rows of the stations taken (all of them, or those named), from a read of the station
   * list that began after the newest change when there is one, else read here.
   */
  private async read(taken: Set<string> | 'all'): Promise<readonly StationListItem[]> {
    const shared = this.shared?.rowsReadAfter(this.markedAt, taken);
    if (!shared) return listStationListItems(this.db, taken === 'all' ? undefined : [...taken]);
    this.readsTaken += 1;
    return shared;
  }

  /** Puts back stations taken for a read that failed (no new change: markedAt stays). */
  private restoreDirty(ids: ReadonlySet<string>): void {
    if (this.dirty === 'all') return;
    for (const id of ids) this.dirty.add(id);
    if (this.dirty.size > this.maxTargetedIds) this.dirty = 'all';
  }

  /** Re-reads every station next time (changes made without an event, catalogue renames). */
  markAll(): void {
    this.markedAt = nextTick();
    this.dirty = 'all';
  }

  /** Every station at version `seq`, ordered by id. The array is shared: do not change it. */
  list(): readonly StationListItem[] {
    if (!this.ordered) {
      const ids = [...this.entries.keys()].sort();
      this.ordered = ids.map((id) => (this.entries.get(id) as Entry).item);
    }
    return this.ordered;
  }

  /**
   * Re-reads the stations named since the last refresh (all of them the first time). Returns the
   * change a map shows as the next version, or null when there was none. The first load is version
   * 1 and returns null: there is nothing it changed for anyone. The caller runs one at a time.
   */
  async refresh(): Promise<StationListChange | null> {
    const taken = this.dirty;
    this.dirty = new Set();
    let rows: readonly StationListItem[];
    try {
      rows = await this.read(taken);
    } catch (err) {
      // Nothing was applied: the same stations are read again next time.
      if (taken === 'all') this.dirty = 'all';
      else this.restoreDirty(taken);
      throw err;
    }
    if (!this.loaded) {
      this.entries = new Map(
        rows.map((item) => [
          formatStationId(item.name, item.userId),
          { item, shown: shownOf(item) },
        ]),
      );
      this.ordered = null;
      this.loadedSeq = 1;
      return null;
    }
    const changed: StationListItem[] = [];
    const seen = new Set<string>();
    for (const item of rows) {
      const id = formatStationId(item.name, item.userId);
      seen.add(id);
      const shown = shownOf(item);
      const before = this.entries.get(id);
      if (before && before.shown === shown) continue;
      this.entries.set(id, { item, shown });
      changed.push(item);
    }
    const removed: string[] = [];
    for (const id of taken === 'all' ? [...this.entries.keys()] : taken) {
      if (!seen.has(id) && this.entries.delete(id)) removed.push(id);
    }
    if (changed.length === 0 && removed.length === 0) return null;
    this.ordered = null;
    this.loadedSeq += 1;
    return { seq: this.loadedSeq, changed, removed };
  }
}
