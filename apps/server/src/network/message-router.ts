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
  formatStationId,
  parseCommandAck,
  parseStationId,
  parseStationTopic,
} from '@tinygs/contracts';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { StationCommands } from './commands';
import type { RxIngest } from './ingest/rx-ingest';
import type { DropReason, NetworkMetrics } from './metrics';
import type { StationRegistry } from './station-registry';

export interface FloodLimit {
  /** more invalid messages than this within the window close the connection */
  maxInvalid: number;
  windowMs: number;
}

export const DEFAULT_FLOOD_LIMIT: FloodLimit = { maxInvalid: 50, windowMs: 10_000 };

// Invalid messages are logged at warn level this many times per connection, then at debug.
const WARN_LOGS_PER_CONNECTION = 5;

interface ConnectionState {
  invalidAt: number[];
  warned: number;
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
    private readonly now: () => number = Date.now,
  ) {}

  handle(topic: string, payload: Buffer, connection: object): void {
    this.metrics.messagesReceived += 1;
    const { t, stationId, valid } = this.topicOf(topic);
    if (!valid || !t || !stationId) {
      this.invalid(connection, 'bad-topic', stationId ?? topic);
      return;
    }
    if (t.kind === 'stat') {
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
        const w = this.parse(WelcomePayloadSchema, payload, connection, stationId);
        if (!w) return;
        this.registry.welcome(
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
        const p = this.parse(PingPayloadSchema, payload, connection, stationId);
        if (!p) return;
        if (
          !this.registry.seen(stationId, connection, { wifiRssi: p.RSSI, radioStatus: p.radio })
        ) {
          this.invalid(connection, 'unknown-station', stationId);
        }
        return;
      }
      case TELE_TOPICS.rx: {
        const rx = this.parse(RxPayloadSchema, payload, connection, stationId);
        if (!rx) return;
        if (!this.registry.seen(stationId, connection)) {
          this.invalid(connection, 'unknown-station', stationId);
          return;
        }
        const dropped = this.ingest.accept({ id: stationId, userId: t.userId }, rx);
        // A repeated frame or a full queue is not the station's fault.
        if (dropped === 'duplicate-reception' || dropped === 'queue-full')
          this.metrics.drop(dropped);
        else if (dropped) this.invalid(connection, dropped, stationId);
        return;
      }
      default:
        return;
    }
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

  private parse<S extends z.ZodType>(
    schema: S,
    payload: Buffer,
    connection: object,
    stationId: string,
  ): z.infer<S> | null {
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      this.invalid(connection, 'not-json', stationId);
      return null;
    }
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
    let state = this.connections.get(connection);
    if (!state) {
      state = { invalidAt: [], warned: 0 };
      this.connections.set(connection, state);
    }
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
