// The station list as the live map holds it, from `stations-delta` events (GET
// /sse/events?stations=delta): a full list on connect (10,000 stations is ~2 MB of JSON), then
// numbered changes. Parsing, validating and comparing run in the map worker; the page only
// receives what changed for its markers. Seeded with the list the map was drawn from (GET
// /v1/stations), it names that list's digest for the stream (`known`), which then opens with a
// small `kept` event instead of the whole list when nothing a map draws changed in between.
import {
  bytesToHex,
  formatStationId,
  STATION_LIST_DIGEST_HEX_LENGTH,
  stationListDigestText,
  type StationListItem,
} from '@tinygs/contracts';
import { checkStationsDelta } from './stationsDeltaCheck';

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

/**
 * SHA-256 of the list's digest text (the server's `known`), by the browser's own Web Crypto rather
 * than a hashing library on the first visit's path.
 */
async function stationListDigest(stations: readonly StationListItem[]): Promise<string | null> {
  const subtle = globalThis.crypto?.subtle as SubtleCrypto | undefined;
  if (!subtle) return null;
  const text = new TextEncoder().encode(stationListDigestText(stations));
  const digest = new Uint8Array(await subtle.digest('SHA-256', text));
  return bytesToHex(digest).slice(0, STATION_LIST_DIGEST_HEX_LENGTH);
}

export class StationListReducer {
  private held = new Map<string, Held>();
  /**
   * the last version applied; null until a full list arrived, and again after a gap; `seeded`
   * while it holds a list from elsewhere (seed) and waits for the stream's first event
   */
  private seq: number | 'seeded' | null = null;

  /**
   * Holds `stations` (the list the map drew) until the stream's first event, and returns its
   * digest for the stream's `known`; null where the page has no Web Crypto (a page not served over
   * HTTPS or from localhost), and the stream then opens with the whole list.
   */
  async seed(stations: readonly StationListItem[]): Promise<string | null> {
    this.replace('seeded', stations);
    return stationListDigest(stations);
  }

  /** Applies the raw `data` of a `stations-delta` event. */
  apply(text: string): StationListUpdate {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return null;
    }
    const event = checkStationsDelta(raw);
    if (!event) return null;
    if (event.kept) {
      // Only a stream opened with the seeded list's digest may build on that list.
      if (this.seq !== 'seeded') {
        this.seq = null;
        return 'resync';
      }
    } else if (event.full) return this.replace(event.seq, event.changed);
    else if (typeof this.seq !== 'number' || event.seq !== this.seq + 1) {
      this.seq = null;
      return 'resync';
    }
    // A delta, or what changed since the seeded list was current (nothing when it still is).
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
  private replace(seq: number | 'seeded', stations: readonly StationListItem[]): StationDelta {
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
