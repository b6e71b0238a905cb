// Live events for browsers (GET /sse/events): `new-packet` for every stored packet, the station
// list, and comment heartbeats that keep proxies from closing idle streams.
//
// The station list (read-models/live-station-list.ts) changes, for a stream, only when something a
// map shows changed: a station appeared or went away, or its name, location, status or satellite
// changed; receptions and pings alone send nothing. It is re-read at most once per
// `stationsEveryMs` after the event bus names changed stations, from the read GET /v1/stations
// made when one began after the change (read-models/station-list.ts). A stream carries it in one of two
// forms: the spec's `stations` event (the whole list), or with `?stations=delta` the
// `stations-delta` event (changed and removed stations, numbered; the whole list on connect and
// after an event had to be skipped for that client). A delta client that names the list it already
// holds (`known`: the digest of what a map draws of it, e.g. from GET /v1/stations) is sent a
// `kept` event on connect instead of the whole list when that is what the current version draws
// (nothing else) or one of the last SSE_RECENT_VERSIONS did (what changed since, merged).
//
// Every event is serialised once into one buffer written to every client. A client whose socket
// buffer is full misses events instead of making the server queue for it without bound (a delta
// client is then owed the whole list, sent with its next write), and one that stays that full is
// disconnected (browsers reconnect by themselves). Streams are capped per client address and
// overall.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  formatStationId,
  SSE_EVENTS,
  STATION_LIST_DIGEST_HEX_LENGTH,
  stationListDigestText,
  type NewPacketEvent,
  type SseStationsForm,
  type StationListItem,
  type StationsDeltaEvent,
} from '@tinygs/contracts';
import type { Logger } from 'pino';
import type { AppContext } from '../context';
import { StationListModel, type StationListChange } from '../read-models/live-station-list';
import { stationListOf } from '../read-models/station-list';

export interface SseOptions {
  heartbeatMs: number;
  /** the station list is re-read (and sent, when a map would show the change) at most this often */
  stationsEveryMs: number;
  /** every station is re-read this often while clients listen, not only those events named */
  stationsFullReadMs: number;
  /** events are dropped for a client with more than this many bytes waiting in its socket */
  maxBufferedBytes: number;
  /** a client still over maxBufferedBytes after this long is disconnected */
  slowClientMs: number;
  /** open streams overall */
  maxClients: number;
  /** open streams per client address (IPv6: per /64) */
  maxClientsPerAddress: number;
}

export const DEFAULT_SSE_OPTIONS: SseOptions = {
  heartbeatMs: 15_000,
  stationsEveryMs: 5_000,
  stationsFullReadMs: 60_000,
  maxBufferedBytes: 1024 * 1024,
  slowClientMs: 30_000,
  maxClients: 10_000,
  maxClientsPerAddress: 20,
};

export type SseRefusal = 'total' | 'per-address';

/** What the hub has done, for operators and benchmarks. */
export interface SseStats {
  /** reads of changed stations from the database, finished (or failed) */
  stationRefreshes: number;
  /** of those, the ones that took the rows GET /v1/stations read after the change */
  stationReadsShared: number;
  /** versions of the list sent (a map-visible change) */
  stationEvents: number;
  /** whole lists serialised (once per version at most, whatever the number of clients) */
  listSerialisations: number;
  /** delta events serialised */
  deltaSerialisations: number;
  /** writes skipped for clients that did not keep up */
  skippedWrites: number;
}

const RECONNECT_AFTER_MS = 5_000;
// Changes arriving together (a batch, a burst of reconnects) make one version.
export const STATIONS_COALESCE_MS = 250;
const HEARTBEAT = Buffer.from(': heartbeat\n\n');

interface SseClient {
  res: ServerResponse;
  address: string;
  form: SseStationsForm;
  /** delta form: owed the whole list (just connected, or a stations event was skipped for it) */
  needsFull: boolean;
  /** delta form, until its first list: the digest of the list it said it holds */
  known: string | null;
  dropped: number;
  /** when its buffer was first found over the limit; null while it keeps up */
  slowSince: number | null;
}

/** The serialised forms of one version of the list, each built when first needed. */
class ListVersion {
  private json: string | null = null;
  private fullEvent: Buffer | null = null;
  private deltaFullEvent: Buffer | null = null;
  private keptEvent: Buffer | null = null;
  private digestHex: string | null = null;

  constructor(
    readonly seq: number,
    private readonly list: readonly StationListItem[],
    private readonly stats: SseStats,
    /** what made it from the version before (null for the first load) */
    readonly change: StationListChange | null = null,
  ) {}

  /** Drops the serialised forms (a version kept only to name what changed since). */
  release(): void {
    this.json = null;
    this.fullEvent = null;
    this.deltaFullEvent = null;
    this.keptEvent = null;
  }

  /** The spec's `stations` event. */
  full(): Buffer {
    this.fullEvent ??= Buffer.from(`event: ${SSE_EVENTS.stations}\ndata: ${this.listJson()}\n\n`);
    return this.fullEvent;
  }

  /** The whole list as a `stations-delta` event (field order as in deltaEvent). */
  deltaFull(): Buffer {
    this.deltaFullEvent ??= Buffer.from(
      `event: ${SSE_EVENTS.stationsDelta}\ndata: {"seq":${this.seq},"full":true,"changed":${this.listJson()},"removed":[]}\n\n`,
    );
    return this.deltaFullEvent;
  }

  /** What a delta client that holds a list drawing as this one is sent instead of deltaFull. */
  kept(): Buffer {
    this.keptEvent ??= Buffer.from(
      `event: ${SSE_EVENTS.stationsDelta}\ndata: {"seq":${this.seq},"full":true,"changed":[],"removed":[],"kept":true}\n\n`,
    );
    return this.keptEvent;
  }

  /** The list's digest as clients name it (`known`). */
  digest(): string {
    this.digestHex ??= createHash('sha256')
      .update(stationListDigestText(this.list))
      .digest('hex')
      .slice(0, STATION_LIST_DIGEST_HEX_LENGTH);
    return this.digestHex;
  }

  private listJson(): string {
    if (this.json === null) {
      this.json = JSON.stringify(this.list);
      this.stats.listSerialisations += 1;
    }
    return this.json;
  }
}

function deltaEvent(change: StationListChange): Buffer {
  const data: StationsDeltaEvent = {
    seq: change.seq,
    full: false,
    changed: change.changed,
    removed: change.removed,
  };
  return Buffer.from(`event: ${SSE_EVENTS.stationsDelta}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** Versions kept after they were replaced, to send a client that holds one of them what changed. */
export const SSE_RECENT_VERSIONS = 12;

/** The changes of consecutive versions as one: what turns the list before the first into the last. */
function mergeChanges(changes: readonly StationListChange[]): {
  changed: StationListItem[];
  removed: string[];
} {
  const changed = new Map<string, StationListItem>();
  const removed = new Set<string>();
  for (const change of changes) {
    for (const s of change.changed) {
      const id = formatStationId(s.name, s.userId);
      changed.set(id, s);
      removed.delete(id);
    }
    for (const id of change.removed) {
      changed.delete(id);
      removed.add(id);
    }
  }
  return { changed: [...changed.values()], removed: [...removed] };
}

export class SseHub {
  readonly stats: SseStats = {
    stationRefreshes: 0,
    stationReadsShared: 0,
    stationEvents: 0,
    listSerialisations: 0,
    deltaSerialisations: 0,
    skippedWrites: 0,
  };
  private readonly clients = new Set<SseClient>();
  private readonly perAddress = new Map<string, number>();
  private readonly model: StationListModel;
  /** the list's current version; null until first loaded */
  private version: ListVersion | null = null;
  /** the versions before it, oldest first (at most SSE_RECENT_VERSIONS) */
  private recent: ListVersion[] = [];
  private pending: string[] = [];
  private flushScheduled = false;
  private readonly unsubscribe: (() => void)[] = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private stationsTimer: NodeJS.Timeout | null = null;
  private refreshing: Promise<void> | null = null;
  private refreshedAt = 0;

  constructor(
    private readonly ctx: AppContext,
    private readonly log: Logger,
    private readonly options: SseOptions = DEFAULT_SSE_OPTIONS,
  ) {
    this.model = new StationListModel(ctx.database.db, stationListOf(ctx));
  }

  get clientCount(): number {
    return this.clients.size;
  }

  start(): void {
    this.unsubscribe.push(
      this.ctx.events.subscribe('new-packet', (event: NewPacketEvent) =>
        this.queue(SSE_EVENTS.newPacket, event),
      ),
      this.ctx.events.subscribe('stations-changed', ({ stationIds }) => {
        this.model.markChanged(stationIds);
        this.scheduleStations();
      }),
    );
    const heartbeat = setInterval(() => this.fanOut(() => HEARTBEAT), this.options.heartbeatMs);
    heartbeat.unref();
    // A safety net for changes that came without an event (and satellite display names).
    const fullRead = setInterval(() => {
      if (this.clients.size === 0) return;
      this.model.markAll();
      this.scheduleStations();
    }, this.options.stationsFullReadMs);
    fullRead.unref();
    this.timers.push(heartbeat, fullRead);
    // The list that later changes are compared with.
    void this.refreshStations();
  }

  /** Why a new stream from `address` would be refused now, or null when it may open. */
  refusal(address: string): SseRefusal | null {
    if (this.clients.size >= this.options.maxClients) return 'total';
    if ((this.perAddress.get(address) ?? 0) >= this.options.maxClientsPerAddress)
      return 'per-address';
    return null;
  }

  /** Takes over a raw HTTP response for the event stream (after `refusal` said yes). */
  add(
    req: IncomingMessage,
    res: ServerResponse,
    address: string,
    form: SseStationsForm = 'full',
    /** delta form: the digest of the list the client holds (SseQuerySchema `known`) */
    known: string | null = null,
  ): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // Reverse proxies (nginx) must not buffer the stream.
      'x-accel-buffering': 'no',
    });
    res.write(`retry: ${RECONNECT_AFTER_MS}\n: connected\n\n`);
    const client: SseClient = {
      res,
      address,
      form,
      needsFull: form === 'delta',
      known: form === 'delta' ? known : null,
      dropped: 0,
      slowSince: null,
    };
    this.clients.add(client);
    this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
    const release = () => {
      if (!this.clients.delete(client)) return;
      const n = (this.perAddress.get(address) ?? 1) - 1;
      if (n > 0) this.perAddress.set(address, n);
      else this.perAddress.delete(address);
    };
    req.once('close', release);
    res.once('close', release);
    res.on('error', release);
    if (this.model.stale) {
      // Changes that came while nobody listened are read before the list is sent.
      const idle = this.clients.size === 1;
      if (
        !this.refreshing &&
        (idle || Date.now() >= this.refreshedAt + this.options.stationsEveryMs)
      )
        void this.refreshStations();
      else this.scheduleStations();
    }
    // Sent now from memory, or when the read under way has finished.
    if (!this.refreshing && this.version) this.sendOwedList(client, this.version);
  }

  /** Ends every stream (server shutdown). */
  stop(): void {
    for (const u of this.unsubscribe.splice(0)) u();
    for (const t of this.timers.splice(0)) clearInterval(t);
    if (this.stationsTimer) clearTimeout(this.stationsTimer);
    this.stationsTimer = null;
    for (const c of this.clients) c.res.end();
    this.clients.clear();
    this.perAddress.clear();
  }

  private queue(event: string, data: unknown): void {
    if (this.clients.size === 0) return;
    this.pending.push(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      // Events of one tick (one committed batch) go out in one write per client.
      setImmediate(() => {
        this.flushScheduled = false;
        const chunk = Buffer.from(this.pending.join(''));
        this.pending = [];
        this.fanOut(() => chunk);
      });
    }
  }

  /**
   * Writes `pick(client)` to every client that keeps up. A delta client owed the whole list gets
   * it first. `stations`: the chunk is the list's version; skipping it leaves a delta client
   * owing the whole list.
   */
  private fanOut(pick: (c: SseClient) => Buffer, stations = false): void {
    const now = Date.now();
    const version = this.version;
    for (const c of this.clients) {
      if (c.res.writableLength > this.options.maxBufferedBytes) {
        c.dropped += 1;
        this.stats.skippedWrites += 1;
        if (stations && c.form === 'delta') c.needsFull = true;
        c.slowSince ??= now;
        if (now - c.slowSince >= this.options.slowClientMs) {
          this.log.info(
            { address: c.address, dropped: c.dropped },
            'slow event-stream client dropped',
          );
          // destroy, not end: end would wait behind the very buffer that is not draining.
          c.res.destroy();
        }
        continue;
      }
      c.slowSince = null;
      if (stations) {
        c.res.write(pick(c));
        c.needsFull = false;
        continue;
      }
      if (version) this.sendOwedList(c, version);
      c.res.write(pick(c));
    }
  }

  private sendOwedList(c: SseClient, version: ListVersion): void {
    if (c.form !== 'delta' || !c.needsFull) return;
    c.res.write(this.owedList(c, version));
    c.needsFull = false;
  }

  /**
   * The whole list a delta client is owed. One that named, on connect, a list that draws as this
   * version or one of the recent ones gets a `kept` event instead: nothing, or what changed since
   * (once: a list owed later, after a skipped event, is always sent whole).
   */
  private owedList(c: SseClient, version: ListVersion): Buffer {
    const known = c.known;
    c.known = null;
    if (known === null) return version.deltaFull();
    if (known === version.digest()) return version.kept();
    const from = this.recent.findLastIndex((v) => v.digest() === known);
    if (from < 0) return version.deltaFull();
    const after = [...this.recent.slice(from + 1), version];
    const changes: StationListChange[] = [];
    let seq = (this.recent[from] as ListVersion).seq;
    for (const v of after) {
      if (v.seq !== seq + 1 || !v.change) return version.deltaFull();
      changes.push(v.change);
      seq = v.seq;
    }
    const data: StationsDeltaEvent = {
      seq: version.seq,
      full: true,
      ...mergeChanges(changes),
      kept: true,
    };
    return Buffer.from(`event: ${SSE_EVENTS.stationsDelta}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** Re-reads soon after a change, but never sooner than stationsEveryMs after the last read. */
  private scheduleStations(): void {
    if (this.stationsTimer || this.unsubscribe.length === 0 || this.clients.size === 0) return;
    const wait = Math.max(
      STATIONS_COALESCE_MS,
      this.refreshedAt + this.options.stationsEveryMs - Date.now(),
    );
    this.stationsTimer = setTimeout(() => {
      this.stationsTimer = null;
      void this.refreshStations();
    }, wait);
    this.stationsTimer.unref();
  }

  /** One read of the changed stations at a time; a change a map shows goes to every client. */
  private refreshStations(): Promise<void> {
    this.refreshing ??= (async () => {
      if (this.stationsTimer) clearTimeout(this.stationsTimer);
      this.stationsTimer = null;
      this.refreshedAt = Date.now();
      try {
        const change = await this.model.refresh();
        if (this.unsubscribe.length === 0) return;
        if (change || !this.version) {
          if (this.version) {
            this.version.release();
            this.recent.push(this.version);
            if (this.recent.length > SSE_RECENT_VERSIONS) this.recent.shift();
          }
          this.version = new ListVersion(this.model.seq, this.model.list(), this.stats, change);
        }
        if (change) this.broadcast(change, this.version);
        // Delta clients that connected meanwhile are owed the list.
        for (const c of this.clients) {
          if (c.res.writableLength <= this.options.maxBufferedBytes)
            this.sendOwedList(c, this.version);
        }
      } catch (err) {
        this.log.warn({ err }, 'station list for live events not available');
      } finally {
        this.stats.stationRefreshes += 1;
        this.stats.stationReadsShared = this.model.readsTaken;
        this.refreshing = null;
        if (this.model.stale) this.scheduleStations();
      }
    })();
    return this.refreshing;
  }

  private broadcast(change: StationListChange, version: ListVersion): void {
    this.stats.stationEvents += 1;
    let delta: Buffer | null = null;
    this.fanOut((c) => {
      if (c.form === 'full') return version.full();
      if (c.needsFull) return this.owedList(c, version);
      if (!delta) {
        delta = deltaEvent(change);
        this.stats.deltaSerialisations += 1;
      }
      return delta;
    }, true);
  }
}
