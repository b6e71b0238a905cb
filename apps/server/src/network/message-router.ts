// Everything a station publishes passes through here: the topic says which station and what, the
// payload is parsed with the contracts schema, and the message goes to the station registry, the
// ingest or the command service. Bad messages are dropped, counted and logged with the station id;
// a connection that keeps sending them is closed.
import {
  LAST_WILL_PAYLOAD,
  PingPayloadSchema,
  RxPayloadSchema,
  StatusPayloadSchema,
  TELE_TOPICS,
  WelcomePayloadSchema,
  checkRxPayload,
  formatStationId,
  parseCommandAck,
  parseStationId,
  parseStationTopic,
  type RxPayload,
} from '@tinygs/contracts';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { StationCommands } from './commands';
import type { RxIngest } from './ingest/rx-ingest';
import type { DropReason, NetworkMetrics } from './metrics';
import type { StationRegistry } from './station-registry';
import { TokenBucket, type BucketSize } from '../lib/token-bucket';

export interface FloodLimit {
  /** more invalid messages than this within the window close the connection */
  maxInvalid: number;
  windowMs: number;
}

export const DEFAULT_FLOOD_LIMIT: FloodLimit = { maxInvalid: 50, windowMs: 10_000 };

/**
 * Per-connection rates. A station connection carries one station (PROTOCOL.md): one welcome per
 * connect, a ping every 60 s, and a reception per frame its single radio hears, which even a
 * fast FSK satellite keeps below a few per second; `stat/*` answers the server's own commands,
 * which come seconds apart. Messages over a bucket are dropped and count towards the flood limit;
 * none of these rates throttles a real station.
 */
export interface StationRates {
  rx: BucketSize;
  welcome: BucketSize;
  ping: BucketSize;
  stat: BucketSize;
}

export function stationRates(rxPerSecond: number): StationRates {
  return {
    rx: { capacity: Math.max(1, Math.ceil(rxPerSecond * 10)), perSecond: rxPerSecond },
    welcome: { capacity: 5, perSecond: 1 / 60 },
    ping: { capacity: 5, perSecond: 1 / 10 },
    stat: { capacity: 30, perSecond: 1 },
  };
}

export const DEFAULT_STATION_RATES = stationRates(10);

type RatedTopic = keyof StationRates;

function locationInRange(location: readonly number[]): boolean {
  const [lat, lng] = location;
  return (
    lat !== undefined && lng !== undefined && lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180
  );
}

// Invalid messages are logged at warn level this many times per connection, then at debug.
const WARN_LOGS_PER_CONNECTION = 5;

interface ConnectionState {
  invalidAt: number[];
  warned: number;
  buckets: Partial<Record<RatedTopic, TokenBucket>>;
}

type ParsedTopic = NonNullable<ReturnType<typeof parseStationTopic>>;

/** A station topic checked once: every station publishes on the same few topics all the time. */
interface KnownTopic {
  t: ParsedTopic | null;
  stationId: string | null;
  valid: boolean;
}

// Bounded so that a client inventing topics cannot grow it: it is emptied when full.
const MAX_KNOWN_TOPICS = 20_000;

export class MessageRouter {
  private readonly connections = new WeakMap<object, ConnectionState>();
  private readonly topics = new Map<string, KnownTopic>();

  constructor(
    private readonly registry: StationRegistry,
    private readonly ingest: RxIngest,
    private readonly commands: StationCommands,
    private readonly metrics: NetworkMetrics,
    private readonly log: Logger,
    private readonly disconnect: (connection: object) => void,
    private readonly flood: FloodLimit = DEFAULT_FLOOD_LIMIT,
    private readonly rates: StationRates = DEFAULT_STATION_RATES,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * `receipt`: the ingest journal's entry of the message; a reception carrying it is queued, or
   * not (dropped) once this returns or the promise it returns settles.
   */
  handle(
    topic: string,
    payload: Buffer,
    connection: object,
    receipt?: string,
  ): void | Promise<void> {
    this.metrics.messagesReceived += 1;
    const { t, stationId, valid } = this.topicOf(topic);
    if (!valid || !t || !stationId) {
      this.invalid(connection, 'bad-topic', stationId ?? topic);
      return;
    }
    if (t.kind === 'stat') {
      if (!this.withinRate(connection, 'stat', stationId)) return;
      this.handleStat(stationId, t.name, payload, connection);
      return;
    }
    if (t.kind !== 'tele') return;
    switch (t.name) {
      case TELE_TOPICS.status:
        if (payload.toString('utf8').trim() === LAST_WILL_PAYLOAD)
          this.registry.wentAway(stationId, connection);
        return;
      case TELE_TOPICS.welcome: {
        if (!this.withinRate(connection, 'welcome', stationId)) return;
        const w = this.parse(WelcomePayloadSchema, payload, connection, stationId);
        if (!w) return;
        if (!locationInRange(w.station_location)) {
          this.invalid(connection, 'bad-location', stationId);
          return;
        }
        this.welcome(
          stationId,
          {
            id: stationId,
            name: t.station,
            userId: t.userId,
            at: this.now(),
            lat: w.station_location[0],
            lng: w.station_location[1],
            version: w.version,
            tx: w.tx,
            gitVersion: w.git_version,
            board: w.board === undefined ? undefined : String(w.board),
            mac: w.mac,
            localIp: w.ip,
            satellite: w.sat || undefined,
            modemConf: w.modem_conf,
          },
          connection,
        );
        return;
      }
      case TELE_TOPICS.ping: {
        if (!this.withinRate(connection, 'ping', stationId)) return;
        const p = this.parse(PingPayloadSchema, payload, connection, stationId);
        if (!p) return;
        const known = this.seen(stationId, connection, { wifiRssi: p.RSSI, radioStatus: p.radio });
        if (known instanceof Promise) return known.then(() => undefined);
        return;
      }
      case TELE_TOPICS.rx: {
        if (!this.withinRate(connection, 'rx', stationId)) return;
        const rx = this.parse(RxPayloadSchema, payload, connection, stationId, checkRxPayload);
        if (!rx) return;
        if (!locationInRange(rx.station_location)) {
          this.invalid(connection, 'bad-location', stationId);
          return;
        }
        const station = { id: stationId, userId: t.userId };
        const known = this.seen(stationId, connection);
        if (known instanceof Promise)
          return known.then((ok) =>
            ok ? this.ingestRx(station, rx, connection, receipt) : undefined,
          );
        if (known) return this.ingestRx(station, rx, connection, receipt);
        return;
      }
      default:
        return;
    }
  }

  /**
   * A sign of life from a station that exists: known here, or (shared ingest) found in storage
   * when another instance took its welcome. Otherwise the message is counted invalid.
   */
  private seen(
    stationId: string,
    connection: object,
    report?: { wifiRssi?: number; radioStatus?: number },
  ): boolean | Promise<boolean> {
    if (this.registry.seen(stationId, connection, report)) return true;
    const settle = (found: boolean): boolean => {
      if (found && this.registry.seen(stationId, connection, report)) return true;
      this.invalid(connection, 'unknown-station', stationId);
      return false;
    };
    const confirmed = this.registry.confirm(stationId);
    return confirmed instanceof Promise ? confirmed.then(settle) : settle(confirmed);
  }

  private ingestRx(
    station: { id: string; userId: string },
    rx: RxPayload,
    connection: object,
    receipt: string | undefined,
  ): void | Promise<void> {
    const dropped = this.ingest.accept(station, rx, receipt);
    if (dropped instanceof Promise) {
      return dropped.then(
        (reason) => this.accepted(reason, connection, station.id),
        (err: unknown) => this.log.error({ err, stationId: station.id }, 'reception not handled'),
      );
    }
    this.accepted(dropped, connection, station.id);
  }

  private accepted(dropped: DropReason | null, connection: object, stationId: string): void {
    // A repeated frame or a full queue is not the station's fault; its share being full is
    // counted but does not close the connection (the writer may just be slow).
    if (dropped === 'duplicate-reception' || dropped === 'queue-full' || dropped === 'queue-share')
      this.metrics.drop(dropped);
    else if (dropped) this.invalid(connection, dropped, stationId);
  }

  private welcome(
    stationId: string,
    write: Parameters<StationRegistry['welcome']>[0],
    connection: object,
  ): void {
    this.registry.welcome(write, connection).then(
      (outcome) => {
        if (outcome !== 'station-cap') return;
        this.metrics.drop('station-cap');
        this.log.warn(
          { stationId, userId: write.userId },
          'new station refused: its owner has reached the cap on stations per user',
        );
      },
      (err: unknown) => this.log.error({ err, stationId }, 'station welcome not handled'),
    );
  }

  /** Takes a token from the connection's bucket for this topic; a message over it is dropped. */
  private withinRate(connection: object, topic: RatedTopic, stationId: string): boolean {
    const state = this.stateOf(connection);
    const now = this.now();
    let bucket = state.buckets[topic];
    if (!bucket) {
      bucket = new TokenBucket(this.rates[topic], now);
      state.buckets[topic] = bucket;
    }
    if (bucket.take(now)) return true;
    this.invalid(connection, 'rate-limited', stationId, topic);
    return false;
  }

  private stateOf(connection: object): ConnectionState {
    let state = this.connections.get(connection);
    if (!state) {
      state = { invalidAt: [], warned: 0, buckets: {} };
      this.connections.set(connection, state);
    }
    return state;
  }

  private topicOf(topic: string): KnownTopic {
    let known = this.topics.get(topic);
    if (!known) {
      const t = parseStationTopic(topic);
      const stationId = t ? formatStationId(t.station, t.userId) : null;
      known = { t, stationId, valid: stationId !== null && parseStationId(stationId) !== null };
      if (this.topics.size >= MAX_KNOWN_TOPICS) this.topics.clear();
      this.topics.set(topic, known);
    }
    return known;
  }

  private handleStat(stationId: string, name: string, payload: Buffer, connection: object): void {
    if (name === 'status') {
      const status = this.parse(StatusPayloadSchema, payload, connection, stationId);
      if (status) this.commands.onStatusReply(stationId, status);
      return;
    }
    const code = parseCommandAck(payload);
    if (code !== null) this.commands.onAck(stationId, name, code);
  }

  /**
   * The payload as `schema` parses it. `check`: the schema's zod-free equivalent (held to it by
   * its test), which answers what the schema accepts; what it refuses goes to the schema, whose
   * answer and message count.
   */
  private parse<S extends z.ZodType>(
    schema: S,
    payload: Buffer,
    connection: object,
    stationId: string,
    check?: (json: unknown) => z.infer<S> | null,
  ): z.infer<S> | null {
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      this.invalid(connection, 'not-json', stationId);
      return null;
    }
    const checked = check?.(json);
    if (checked) return checked;
    const result = schema.safeParse(json);
    if (!result.success) {
      const issue = result.error.issues[0];
      this.invalid(
        connection,
        'invalid-payload',
        stationId,
        issue ? `${issue.path.join('.')}: ${issue.message}` : undefined,
      );
      return null;
    }
    return result.data;
  }

  private invalid(
    connection: object,
    reason: DropReason,
    stationId: string,
    detail?: string,
  ): void {
    this.metrics.drop(reason);
    const state = this.stateOf(connection);
    const now = this.now();
    if (state.warned < WARN_LOGS_PER_CONNECTION) {
      state.warned += 1;
      this.log.warn({ stationId, reason, detail }, 'station message dropped');
    } else {
      this.log.debug({ stationId, reason, detail }, 'station message dropped');
    }
    state.invalidAt.push(now);
    while (state.invalidAt.length > 0 && now - (state.invalidAt[0] ?? now) > this.flood.windowMs)
      state.invalidAt.shift();
    if (state.invalidAt.length > this.flood.maxInvalid) {
      state.invalidAt = [];
      this.metrics.floodDisconnects += 1;
      this.log.warn({ stationId }, 'connection closed: too many invalid messages');
      this.disconnect(connection);
    }
  }
}
