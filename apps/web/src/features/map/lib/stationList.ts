// The station list as the live map holds it, from `stations-delta` events (GET
// /sse/events?stations=delta): a full list on connect (10,000 stations is ~2 MB of JSON), then
// numbered changes. Parsing, validating and comparing run in the map worker; the page only
// receives what changed for its markers.
import { formatStationId, StationsDeltaEventSchema, type StationListItem } from '@tinygs/contracts';

export interface StationDelta {
  /** added or changed stations */
  changed: StationListItem[];
  /** ids `{name}@{userId}` no longer listed */
  removed: string[];
}

/**
 * What one event did: the markers' delta; `resync` when an event is missing (the stream has to be
 * reopened, which brings a full list); null when the event was not valid.
 */
export type StationListUpdate = StationDelta | 'resync' | null;

interface Held {
  item: StationListItem;
  signature: string;
}

export class StationListReducer {
  private held = new Map<string, Held>();
  /** the last version applied; null until a full list arrived, and again after a gap */
  private seq: number | null = null;

  /** Applies the raw `data` of a `stations-delta` event. */
  apply(text: string): StationListUpdate {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return null;
    }
    const parsed = StationsDeltaEventSchema.safeParse(raw);
    if (!parsed.success) return null;
    const event = parsed.data;
    if (event.full) return this.replace(event.seq, event.changed);
    if (this.seq === null || event.seq !== this.seq + 1) {
      this.seq = null;
      return 'resync';
    }
    this.seq = event.seq;
    for (const station of event.changed) {
      const id = formatStationId(station.name, station.userId);
      this.held.set(id, { item: station, signature: JSON.stringify(station) });
    }
    const removed = event.removed.filter((id) => this.held.delete(id));
    return { changed: event.changed, removed };
  }

  /** Every station held, ordered by id (what the server's full list at `seq` holds). */
  list(): StationListItem[] {
    return [...this.held.keys()].sort().map((id) => (this.held.get(id) as Held).item);
  }

  /** A full list: only stations that differ from what was held reach the markers. */
  private replace(seq: number, stations: readonly StationListItem[]): StationDelta {
    const next = new Map<string, Held>();
    const changed: StationListItem[] = [];
    for (const station of stations) {
      const id = formatStationId(station.name, station.userId);
      const signature = JSON.stringify(station);
      next.set(id, { item: station, signature });
      if (this.held.get(id)?.signature !== signature) changed.push(station);
    }
    const removed = [...this.held.keys()].filter((id) => !next.has(id));
    this.held = next;
    this.seq = seq;
    return { changed, removed };
  }
}
