// Which stations are online, and through which broker connection. With the embedded broker it is
// the only way a station can be online, so this in-memory view is authoritative; every change is
// queued to the batch writer, which keeps the stations table and the `stations` counter in step
// with it. With an external broker shared by several instances (`shared`), each instance sees
// part of every station's messages: storage is authoritative, the writes count what they change,
// and this view only says what this instance saw.
// It also keeps the cap on stations per user: a welcome under a new name past the cap creates
// nothing.
import { parseStationId, type OfflineCause } from '@tinygs/contracts';
import { LRUCache } from 'lru-cache';
import type { WelcomeWrite } from '../repositories/stations';
import type { BatchWriter } from './ingest/batch-writer';

/** Identity of one broker connection (the aedes client object); null for in-process publishers. */
export type ConnectionKey = object | null;

interface OnlineEntry {
  connection: ConnectionKey;
  lastSeen: number;
}

export interface StationCap {
  /** stations one user may have */
  perUser: number;
  /** the ids of one user's stations in storage (the owner may have deleted some meanwhile) */
  loadOwned(userId: string): Promise<string[]>;
}

/** Shared mode: storage, asked about a station this instance has not heard of. */
export interface StoredStations {
  find(id: string): Promise<{ online: boolean } | null>;
}

/** Reads of storage about unknown stations at one time; past it, an unknown station is refused. */
const MAX_LOOKUPS = 64;
/** An id storage did not have is not asked about again for this long. */
const ABSENT_TTL_MS = 5_000;
const MAX_ABSENT = 10_000;

/** What became of a welcome. */
export type WelcomeOutcome = 'accepted' | 'station-cap' | 'connection-closed';

export class StationRegistry {
  private readonly known = new Set<string>();
  private readonly knownByUser = new Map<string, Set<string>>();
  private readonly online = new Map<string, OnlineEntry>();
  private readonly byConnection = new Map<object, Set<string>>();
  private readonly closedConnections = new WeakSet<object>();
  private readonly recounts = new Map<string, Promise<void>>();

  constructor(
    private readonly writer: BatchWriter,
    private readonly cap: StationCap = { perUser: Infinity, loadOwned: async () => [] },
    private readonly now: () => number = Date.now,
    private readonly shared = false,
    private readonly stored: StoredStations | null = null,
  ) {}

  private readonly lookups = new Map<string, Promise<boolean>>();
  private readonly absent = new LRUCache<string, true>({ max: MAX_ABSENT, ttl: ABSENT_TTL_MS });

  /**
   * Whether the station exists. Shared mode: a station this instance has not heard of may have
   * been created a moment ago through another instance (its welcome went there, and the event
   * saying so may not have arrived yet), so storage is asked, once per id at a time; an id storage
   * did not have is refused without asking again for a few seconds, and past MAX_LOOKUPS reads
   * at once every unknown station is refused (a client inventing station names costs at most
   * one primary-key read per name, within its connection's message rate).
   */
  confirm(id: string): boolean | Promise<boolean> {
    if (this.known.has(id)) return true;
    if (!this.shared || !this.stored || this.absent.has(id)) return false;
    const pending = this.lookups.get(id);
    if (pending) return pending;
    if (this.lookups.size >= MAX_LOOKUPS) return false;
    const lookup = this.stored.find(id).then(
      (state) => {
        if (!state) {
          this.absent.set(id, true);
          return false;
        }
        this.remember(id);
        if (state.online) this.storedOnline.add(id);
        return true;
      },
      () => false,
    );
    this.lookups.set(id, lookup);
    void lookup.finally(() => this.lookups.delete(id));
    return lookup;
  }

  /** What storage says (shared mode): stations created and online through other instances. */
  syncStored(states: readonly { id: string; online: boolean }[]): void {
    this.storedOnline = new Set(states.filter((s) => s.online).map((s) => s.id));
    for (const s of states) this.remember(s.id);
  }

  private storedOnline = new Set<string>();

  /** Who came online: known here, or (shared) for storage to tell. */
  private cameOnline(id: string): boolean | null {
    return this.shared ? null : !this.online.has(id);
  }

  /** Stations that exist in storage (they may send pings and receptions). */
  addKnown(ids: Iterable<string>): void {
    for (const id of ids) this.remember(id);
  }

  isKnown(id: string): boolean {
    return this.known.has(id);
  }

  isOnline(id: string): boolean {
    return this.online.has(id) || this.storedOnline.has(id);
  }

  onlineCount(): number {
    return this.online.size;
  }

  /**
   * A station's welcome: creates it when new. A new station of a user at the cap is refused once
   * the user's stations have been counted again from storage (deleted ones no longer count).
   */
  async welcome(write: WelcomeWrite, connection: ConnectionKey): Promise<WelcomeOutcome> {
    if (!this.known.has(write.id) && this.ownedBy(write.userId) >= this.cap.perUser) {
      await this.recount(write.userId);
      if (!this.known.has(write.id) && this.ownedBy(write.userId) >= this.cap.perUser)
        return 'station-cap';
      if (connection !== null && this.closedConnections.has(connection)) return 'connection-closed';
    }
    const cameOnline = this.cameOnline(write.id);
    this.remember(write.id);
    this.bind(write.id, connection, write.at);
    this.writer.enqueue({ kind: 'welcome', write, cameOnline });
    return 'accepted';
  }

  private ownedBy(userId: string): number {
    return this.knownByUser.get(userId)?.size ?? 0;
  }

  private remember(id: string): void {
    this.known.add(id);
    const userId = parseStationId(id)?.userId;
    if (userId === undefined) return;
    let ids = this.knownByUser.get(userId);
    if (!ids) {
      ids = new Set();
      this.knownByUser.set(userId, ids);
    }
    ids.add(id);
  }

  /** Stations in storage plus those online (their welcome may not be stored yet). */
  private recount(userId: string): Promise<void> {
    let pending = this.recounts.get(userId);
    if (!pending) {
      pending = this.cap
        .loadOwned(userId)
        .then((stored) => {
          const ids = new Set(stored);
          for (const id of this.knownByUser.get(userId) ?? []) {
            if (this.online.has(id)) ids.add(id);
            else if (!ids.has(id)) this.known.delete(id);
          }
          this.knownByUser.set(userId, ids);
          for (const id of ids) this.known.add(id);
        })
        .finally(() => this.recounts.delete(userId));
      this.recounts.set(userId, pending);
    }
    return pending;
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
    const first = !this.online.has(id);
    this.bind(id, connection, at);
    if (first || report)
      this.writer.enqueue({
        kind: 'seen',
        id,
        at,
        ...report,
        cameOnline: this.shared ? null : first,
      });
    return true;
  }

  /** The station's last will (`tele/status` 0). Ignored when a newer connection speaks for it. */
  wentAway(id: string, connection: ConnectionKey): void {
    const entry = this.online.get(id);
    if (!entry) {
      // Another instance may have seen it come online.
      if (this.shared) {
        this.storedOnline.delete(id);
        this.writer.enqueue({ kind: 'offline', ids: [id], at: this.now(), cause: 'last-will' });
      }
      return;
    }
    if (entry.connection !== null && connection !== null && entry.connection !== connection) return;
    this.setOffline([id], 'last-will');
  }

  /** The broker connection closed: every station it spoke for is offline. */
  connectionClosed(connection: object): void {
    this.closedConnections.add(connection);
    const ids = this.byConnection.get(connection);
    this.byConnection.delete(connection);
    if (!ids) return;
    this.setOffline(
      [...ids].filter((id) => this.online.get(id)?.connection === connection),
      'disconnect',
    );
  }

  /** Stations silent for longer than `silenceMs` are offline. */
  sweep(silenceMs: number): string[] {
    const limit = this.now() - silenceMs;
    const stale = [...this.online].filter(([, e]) => e.lastSeen < limit).map(([id]) => id);
    this.setOffline(stale, 'ping-timeout');
    return stale;
  }

  private bind(id: string, connection: ConnectionKey, at: number): void {
    const previous = this.online.get(id);
    // The same connection again (every reception of an online station): byConnection has it.
    if (previous && connection !== null && previous.connection === connection) {
      previous.lastSeen = at;
      return;
    }
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

  /**
   * Shared mode: stations whose stored last sign of life is older than `silentBefore` (any
   * instance may have heard from them since this one did) go offline in storage, unless heard of
   * meanwhile.
   */
  storedSilent(ids: string[], silentBefore: number): void {
    if (ids.length === 0) return;
    this.forget(ids.filter((id) => (this.online.get(id)?.lastSeen ?? 0) < silentBefore));
    this.writer.enqueue({
      kind: 'offline',
      ids,
      silentBefore,
      at: this.now(),
      cause: 'ping-timeout',
    });
  }

  private forget(ids: readonly string[]): void {
    for (const id of ids) {
      const entry = this.online.get(id);
      if (entry?.connection) this.byConnection.get(entry.connection)?.delete(id);
      this.online.delete(id);
      this.storedOnline.delete(id);
    }
  }

  private setOffline(ids: string[], cause: OfflineCause): void {
    if (ids.length === 0) return;
    this.forget(ids);
    this.writer.enqueue({ kind: 'offline', ids, at: this.now(), cause });
  }
}
