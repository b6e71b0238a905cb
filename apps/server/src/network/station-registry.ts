// Which stations are online, and through which broker connection. The embedded broker is the only
// way a station can be online, so this in-memory view is authoritative; every change is queued to
// the batch writer, which keeps the stations table and the `stations` counter in step with it.
import type { WelcomeWrite } from '../repositories/stations';
import type { BatchWriter } from './ingest/batch-writer';

/** Identity of one broker connection (the aedes client object); null for in-process publishers. */
export type ConnectionKey = object | null;

interface OnlineEntry {
  connection: ConnectionKey;
  lastSeen: number;
}

export class StationRegistry {
  private readonly known = new Set<string>();
  private readonly online = new Map<string, OnlineEntry>();
  private readonly byConnection = new Map<object, Set<string>>();

  constructor(
    private readonly writer: BatchWriter,
    private readonly now: () => number = Date.now,
  ) {}

  /** Stations that exist in storage (they may send pings and receptions). */
  addKnown(ids: Iterable<string>): void {
    for (const id of ids) this.known.add(id);
  }

  isKnown(id: string): boolean {
    return this.known.has(id);
  }

  isOnline(id: string): boolean {
    return this.online.has(id);
  }

  onlineCount(): number {
    return this.online.size;
  }

  welcome(write: WelcomeWrite, connection: ConnectionKey): void {
    const cameOnline = !this.online.has(write.id);
    this.known.add(write.id);
    this.bind(write.id, connection, write.at);
    this.writer.enqueue({ kind: 'welcome', write, cameOnline });
  }

  /**
   * A sign of life from a known station (ping, reception). Only a change of state or reported
   * Wi-Fi/radio values are written; receptions update last-seen with their own counters.
   * False when the station does not exist.
   */
  seen(
    id: string,
    connection: ConnectionKey,
    report?: { wifiRssi?: number; radioStatus?: number },
  ): boolean {
    if (!this.known.has(id)) return false;
    const at = this.now();
    const cameOnline = !this.online.has(id);
    this.bind(id, connection, at);
    if (cameOnline || report) this.writer.enqueue({ kind: 'seen', id, at, ...report, cameOnline });
    return true;
  }

  /** The station's last will (`tele/status` 0). Ignored when a newer connection speaks for it. */
  wentAway(id: string, connection: ConnectionKey): void {
    const entry = this.online.get(id);
    if (!entry) return;
    if (entry.connection !== null && connection !== null && entry.connection !== connection) return;
    this.setOffline([id]);
  }

  /** The broker connection closed: every station it spoke for is offline. */
  connectionClosed(connection: object): void {
    const ids = this.byConnection.get(connection);
    this.byConnection.delete(connection);
    if (!ids) return;
    this.setOffline([...ids].filter((id) => this.online.get(id)?.connection === connection));
  }

  /** Stations silent for longer than `silenceMs` are offline. */
  sweep(silenceMs: number): string[] {
    const limit = this.now() - silenceMs;
    const stale = [...this.online].filter(([, e]) => e.lastSeen < limit).map(([id]) => id);
    this.setOffline(stale);
    return stale;
  }

  private bind(id: string, connection: ConnectionKey, at: number): void {
    const previous = this.online.get(id);
    if (previous?.connection && previous.connection !== connection) {
      this.byConnection.get(previous.connection)?.delete(id);
    }
    const keep = connection ?? previous?.connection ?? null;
    this.online.set(id, { connection: keep, lastSeen: at });
    if (keep) {
      let ids = this.byConnection.get(keep);
      if (!ids) {
        ids = new Set();
        this.byConnection.set(keep, ids);
      }
      ids.add(id);
    }
  }

  private setOffline(ids: string[]): void {
    if (ids.length === 0) return;
    for (const id of ids) {
      const entry = this.online.get(id);
      if (entry?.connection) this.byConnection.get(entry.connection)?.delete(id);
      this.online.delete(id);
    }
    this.writer.enqueue({ kind: 'offline', ids });
  }
}
