// Short-lived state created by live events: which satellites and stations are pinging and which
// ticker items are shown. Kept outside React so the map layers can read it on every animation
// frame without re-rendering thousands of markers.
import {
  PING_ANIMATION_MS,
  TICKER_ITEM_MS,
  type NewPacketEvent,
  type StationListItem,
} from '@tinygs/contracts';

export interface Ping {
  startedAt: number;
  expiresAt: number;
  /** where the packet was heard from: used when the satellite has no TLE position of its own */
  position?: { lat: number; lng: number };
}

export interface TickerItem {
  key: number;
  /** satellite display name */
  satellite: string;
  satelliteName: string;
  packetId: string;
}

type Listener = () => void;

export class LiveActivity {
  private readonly satellitePings = new Map<string, Ping>();
  private readonly stationPings = new Map<string, Ping>();
  private tickerItems: readonly TickerItem[] = [];
  private readonly listeners = new Set<Listener>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private nextKey = 1;

  constructor(private readonly now: () => number = Date.now) {}

  /** A received packet: its satellite and every receiving station ping, and a ticker item shows. */
  onNewPacket(event: NewPacketEvent): void {
    const startedAt = this.now();
    const ping: Ping = { startedAt, expiresAt: startedAt + PING_ANIMATION_MS };
    this.satellitePings.set(event.satelliteName, {
      ...ping,
      position: { lat: event.satPos.lat, lng: event.satPos.lng },
    });
    for (const id of event.stations) this.stationPings.set(id, ping);
    this.later(PING_ANIMATION_MS, () => {
      const t = this.now();
      expire(this.satellitePings, t);
      expire(this.stationPings, t);
    });

    const item: TickerItem = {
      key: this.nextKey++,
      satellite: event.satellite,
      satelliteName: event.satelliteName,
      packetId: event.packetId,
    };
    this.tickerItems = [...this.tickerItems, item];
    this.later(TICKER_ITEM_MS, () => {
      this.tickerItems = this.tickerItems.filter((i) => i !== item);
    });
    this.emit();
  }

  satellitePing(name: string): Ping | undefined {
    return this.satellitePings.get(name);
  }

  stationPing(id: string): Ping | undefined {
    return this.stationPings.get(id);
  }

  pingingSatellites(): ReadonlyMap<string, Ping> {
    return this.satellitePings;
  }

  /** SPEC.md section 4: a station is receiving when it is online and its satellite is pinging. */
  isReceiving(station: Pick<StationListItem, 'status' | 'satellite'>): boolean {
    return (
      station.status !== 0 &&
      station.satellite !== null &&
      this.satellitePings.has(station.satellite)
    );
  }

  pingingStations(): ReadonlyMap<string, Ping> {
    return this.stationPings;
  }

  /** Stable array identity between changes (useSyncExternalStore snapshot). */
  ticker = (): readonly TickerItem[] => this.tickerItems;

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  dispose(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.listeners.clear();
  }

  private later(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
      this.emit();
    }, ms);
    this.timers.add(timer);
  }

  private emit(): void {
    for (const l of this.listeners) l();
  }
}

/** A newer ping of the same key replaces the entry, so only entries past their own expiry go. */
function expire(pings: Map<string, Ping>, now: number): void {
  for (const [key, ping] of pings) if (ping.expiresAt <= now) pings.delete(key);
}
