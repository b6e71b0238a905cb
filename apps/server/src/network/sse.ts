// Live events for browsers (GET /sse/events): `new-packet` for every stored packet, `stations`
// (the whole station list) at most once per interval when something about stations changed, and
// comment heartbeats that keep proxies from closing idle streams. Events are serialised once and
// written to every client; a client whose socket buffer is full misses events instead of making
// the server queue for it without bound, and one that stays that full is disconnected (browsers
// reconnect by themselves). Streams are capped per client address and overall.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SSE_EVENTS, type NewPacketEvent } from '@tinygs/contracts';
import type { Logger } from 'pino';
import type { AppContext } from '../context';
import { listStationListItems } from '../repositories/stations';

export interface SseOptions {
  heartbeatMs: number;
  /** the station list is sent at most this often */
  stationsEveryMs: number;
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
  maxBufferedBytes: 1024 * 1024,
  slowClientMs: 30_000,
  maxClients: 10_000,
  maxClientsPerAddress: 20,
};

export type SseRefusal = 'total' | 'per-address';

const RECONNECT_AFTER_MS = 5_000;
// Changes arriving together (a batch, a burst of reconnects) make one list.
const STATIONS_COALESCE_MS = 250;

interface SseClient {
  res: ServerResponse;
  address: string;
  dropped: number;
  /** when its buffer was first found over the limit; null while it keeps up */
  slowSince: number | null;
}

export class SseHub {
  private readonly clients = new Set<SseClient>();
  private readonly perAddress = new Map<string, number>();
  private pending: string[] = [];
  private flushScheduled = false;
  private stationsDirty = false;
  private readonly unsubscribe: (() => void)[] = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private stationsTimer: NodeJS.Timeout | null = null;
  private stationsSentAt = 0;

  constructor(
    private readonly ctx: AppContext,
    private readonly log: Logger,
    private readonly options: SseOptions = DEFAULT_SSE_OPTIONS,
  ) {}

  get clientCount(): number {
    return this.clients.size;
  }

  start(): void {
    this.unsubscribe.push(
      this.ctx.events.subscribe('new-packet', (event: NewPacketEvent) =>
        this.queue(SSE_EVENTS.newPacket, event),
      ),
      this.ctx.events.subscribe('stations-changed', () => {
        this.stationsDirty = true;
        this.scheduleStations();
      }),
    );
    const heartbeat = setInterval(() => this.write(': heartbeat\n\n'), this.options.heartbeatMs);
    heartbeat.unref();
    this.timers.push(heartbeat);
  }

  /** Why a new stream from `address` would be refused now, or null when it may open. */
  refusal(address: string): SseRefusal | null {
    if (this.clients.size >= this.options.maxClients) return 'total';
    if ((this.perAddress.get(address) ?? 0) >= this.options.maxClientsPerAddress)
      return 'per-address';
    return null;
  }

  /** Takes over a raw HTTP response for the event stream (after `refusal` said yes). */
  add(req: IncomingMessage, res: ServerResponse, address: string): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // Reverse proxies (nginx) must not buffer the stream.
      'x-accel-buffering': 'no',
    });
    res.write(`retry: ${RECONNECT_AFTER_MS}\n: connected\n\n`);
    const client: SseClient = { res, address, dropped: 0, slowSince: null };
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
        const chunk = this.pending.join('');
        this.pending = [];
        this.write(chunk);
      });
    }
  }

  private write(chunk: string): void {
    const now = Date.now();
    for (const c of this.clients) {
      if (c.res.writableLength > this.options.maxBufferedBytes) {
        c.dropped += 1;
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
      c.res.write(chunk);
    }
  }

  /** Sends soon after a change, but never sooner than stationsEveryMs after the previous list. */
  private scheduleStations(): void {
    if (this.stationsTimer || this.unsubscribe.length === 0) return;
    const wait = Math.max(
      STATIONS_COALESCE_MS,
      this.stationsSentAt + this.options.stationsEveryMs - Date.now(),
    );
    this.stationsTimer = setTimeout(() => void this.sendStations(), wait);
    this.stationsTimer.unref();
  }

  private async sendStations(): Promise<void> {
    if (!this.stationsDirty || this.clients.size === 0) {
      this.stationsTimer = null;
      return;
    }
    this.stationsDirty = false;
    this.stationsSentAt = Date.now();
    try {
      const stations = await listStationListItems(this.ctx.database.db);
      this.write(`event: ${SSE_EVENTS.stations}\ndata: ${JSON.stringify(stations)}\n\n`);
    } catch (err) {
      this.stationsDirty = true;
      this.log.warn({ err }, 'station list for live events not available');
    } finally {
      this.stationsTimer = null;
      if (this.stationsDirty) this.scheduleStations();
    }
  }
}
