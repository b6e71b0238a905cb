// A `stations` event carries the whole list (10,000 stations is ~2 MB of JSON). Parsing,
// validating and comparing it runs in the map worker; the page only receives what changed.
import { StationsEventSchema, formatStationId, type StationListItem } from '@tinygs/contracts';

export interface StationDelta {
  /** added or changed stations */
  changed: StationListItem[];
  /** ids `{name}@{userId}` no longer listed */
  removed: string[];
}

export class StationDiffer {
  private previous = new Map<string, string>();

  /** The difference to the last list seen; null when the event is not a valid station list. */
  apply(text: string): StationDelta | null {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return null;
    }
    const parsed = StationsEventSchema.safeParse(raw);
    if (!parsed.success) return null;
    const next = new Map<string, string>();
    const changed: StationListItem[] = [];
    for (const station of parsed.data) {
      const id = formatStationId(station.name, station.userId);
      const signature = JSON.stringify(station);
      next.set(id, signature);
      if (this.previous.get(id) !== signature) changed.push(station);
    }
    const removed = [...this.previous.keys()].filter((id) => !next.has(id));
    this.previous = next;
    return { changed, removed };
  }
}
