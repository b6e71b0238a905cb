// Live events for browsers (GET /sse/events): `new-packet` for every stored packet, `stations`
// (the whole station list) at most once per interval when something about stations changed, and
// comment heartbeats that keep proxies from closing idle streams. Events are serialised once and
// written to every client; a client whose socket buffer is full misses events instead of making
// the server queue for it without bound.
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
}

export const DEFAULT_SSE_OPTIONS: SseOptions = {
  heartbeatMs: 15_000,
  stationsEveryMs: 5_000,
  maxBufferedBytes: 1024 * 1024,
};

const RECONNECT_AFTER_MS = 5_000;
// Changes arriving together (a batch, a burst of reconnects) make one list.
const STATIONS_COALESCE_MS = 250;

interface SseClient {
  res: ServerResponse;
  dropped: number;
}

export class SseHub {
  private readonly clients = new Set<SseClient>();
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

  /** Takes over a raw HTTP response for the event stream. */
  add(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // Reverse proxies (nginx) must not buffer the stream.
      'x-accel-buffering': 'no',
    });
    res.write(`retry: ${RECONNECT_AFTER_MS}\n: connected\n\n`);
    const client: SseClient = { res, dropped: 0 };
    this.clients.add(client);
    const release = () => this.clients.delete(client);
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
    for (const c of this.clients) {
      if (c.res.writableLength > this.options.maxBufferedBytes) {
        c.dropped += 1;
        continue;
      }
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
