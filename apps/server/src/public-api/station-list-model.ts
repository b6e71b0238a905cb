// The station list as the live maps know it, kept in memory for the `stations` live event and its
// delta form. A station is re-read only when the event bus names it (`stations-changed`), and it
// counts as changed only when something a map shows changed: it appeared or went away, or its
// name, location, status (online/offline) or satellite did. Receptions and pings alone (lastSeen,
// lastPacketTime, counters) change nothing here: the entry keeps the item read at the station's last
// map change, so the full list at version `seq` is exactly what a client holds after applying every
// delta up to `seq`. GET /v1/stations answers with fresh rows (see station-routes.ts).
import { formatStationId, type StationListItem } from '@tinygs/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { listStationListItems } from '../repositories/stations';

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
function shownOf(s: StationListItem): string {
  return JSON.stringify([
    s.location[0],
    s.location[1],
    s.status,
    s.satellite,
    s.satDisplayName ?? null,
  ]);
}

export class StationListModel {
  private entries = new Map<string, Entry>();
  /** stations to re-read; `all` before the first load and past `maxTargetedIds` */
  private dirty: Set<string> | 'all' = 'all';
  private loadedSeq = 0;
  private ordered: StationListItem[] | null = null;

  constructor(
    private readonly db: Kysely<Database>,
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
    if (this.dirty === 'all') return;
    for (const id of ids) this.dirty.add(id);
    if (this.dirty.size > this.maxTargetedIds) this.dirty = 'all';
  }

  /** Re-reads every station next time (changes made without an event, catalogue renames). */
  markAll(): void {
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
    let rows: StationListItem[];
    try {
      rows = await listStationListItems(this.db, taken === 'all' ? undefined : [...taken]);
    } catch (err) {
      // Nothing was applied: the same stations are read again next time.
      if (taken === 'all') this.dirty = 'all';
      else this.markChanged([...taken]);
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
