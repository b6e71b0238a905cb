// Commands to one station (PROTOCOL.md "Server -> station"), published by the server's own
// in-process identity on `tinygs/{user}/{station}/cmnd/{cmd}`. A station that is not online
// cannot be reached: callers get NotOnlineError (the HTTP layer answers 409).
import {
  MQTT_MAX_PACKET_BYTES,
  parseStationId,
  stationTopic,
  type Command,
  type FilterCommand,
  type ModemConf,
  type StatusPayload,
} from '@tinygs/contracts';
import type { Logger } from 'pino';

export class NotOnlineError extends Error {
  override readonly name = 'NotOnlineError';
  constructor(readonly stationId: string) {
    super(`Station ${stationId} is not online`);
  }
}

export class CommandTooLargeError extends RangeError {
  override readonly name = 'CommandTooLargeError';
}

export interface CommandService {
  isOnline(stationId: string): boolean;
  /** tune now (not saved on the station) */
  begine(stationId: string, modem: ModemConf): Promise<void>;
  /** tune and save as the station's start-up configuration */
  beginp(stationId: string, modem: ModemConf): Promise<void>;
  freq(stationId: string, freqMHz: number): Promise<void>;
  /** transmit these bytes (the station refuses when its hardware TX switch is off) */
  tx(stationId: string, bytes: Uint8Array): Promise<void>;
  sat(stationId: string, satellite: string, norad: number): Promise<void>;
  reset(stationId: string): Promise<void>;
  update(stationId: string): Promise<void>;
  /** asks for `stat/status`; null when the station did not answer within the timeout */
  status(stationId: string, timeoutMs?: number): Promise<StatusPayload | null>;
  log(stationId: string, text: string): Promise<void>;
  weblogin(stationId: string, text: string): Promise<void>;
  filter(stationId: string, filter: FilterCommand): Promise<void>;
}

/** Publishes as the server (not a user); resolves once the broker accepted the message. */
export type ServerPublish = (topic: string, payload: Buffer) => Promise<void>;

// MQTT fixed header (up to 5 bytes) and topic length (2 bytes) around topic and payload.
const PUBLISH_OVERHEAD_BYTES = 7;
const STATUS_TIMEOUT_MS = 5_000;

export class StationCommands implements CommandService {
  private readonly statusWaiters = new Map<string, ((payload: StatusPayload) => void)[]>();

  constructor(
    private readonly publish: ServerPublish,
    private readonly online: (stationId: string) => boolean,
    private readonly logger: Logger,
  ) {}

  isOnline(stationId: string): boolean {
    return this.online(stationId);
  }

  begine(stationId: string, modem: ModemConf): Promise<void> {
    return this.send(stationId, 'begine', JSON.stringify(modem));
  }

  beginp(stationId: string, modem: ModemConf): Promise<void> {
    return this.send(stationId, 'beginp', JSON.stringify(modem));
  }

  freq(stationId: string, freqMHz: number): Promise<void> {
    return this.send(stationId, 'freq', String(freqMHz));
  }

  tx(stationId: string, bytes: Uint8Array): Promise<void> {
    return this.send(stationId, 'tx', Buffer.from(bytes));
  }

  sat(stationId: string, satellite: string, norad: number): Promise<void> {
    return this.send(stationId, 'sat', JSON.stringify([satellite, norad]));
  }

  reset(stationId: string): Promise<void> {
    return this.send(stationId, 'reset', '');
  }

  update(stationId: string): Promise<void> {
    return this.send(stationId, 'update', '');
  }

  log(stationId: string, text: string): Promise<void> {
    return this.send(stationId, 'log', text);
  }

  weblogin(stationId: string, text: string): Promise<void> {
    return this.send(stationId, 'weblogin', text);
  }

  filter(stationId: string, filter: FilterCommand): Promise<void> {
    return this.send(stationId, 'filter', JSON.stringify(filter));
  }

  async status(stationId: string, timeoutMs = STATUS_TIMEOUT_MS): Promise<StatusPayload | null> {
    let resolveReply!: (payload: StatusPayload | null) => void;
    const reply = new Promise<StatusPayload | null>((resolve) => (resolveReply = resolve));
    const waiter = (payload: StatusPayload) => resolveReply(payload);
    const waiters = this.statusWaiters.get(stationId) ?? [];
    waiters.push(waiter);
    this.statusWaiters.set(stationId, waiters);
    const timer = setTimeout(() => resolveReply(null), timeoutMs);
    try {
      await this.send(stationId, 'status', '0');
      return await reply;
    } finally {
      clearTimeout(timer);
      const left = (this.statusWaiters.get(stationId) ?? []).filter((w) => w !== waiter);
      if (left.length > 0) this.statusWaiters.set(stationId, left);
      else this.statusWaiters.delete(stationId);
    }
  }

  /** `stat/status` arrived from a station. */
  onStatusReply(stationId: string, payload: StatusPayload): void {
    for (const waiter of this.statusWaiters.get(stationId) ?? []) waiter(payload);
  }

  /** `stat/{command}` arrived: 0 is OK, anything else a radio error code. */
  onAck(stationId: string, command: string, code: number): void {
    if (code !== 0)
      this.logger.info({ stationId, command, code }, 'station reported a command error');
  }

  private async send(stationId: string, command: Command, payload: string | Buffer): Promise<void> {
    const id = parseStationId(stationId);
    if (!id || !this.online(stationId)) throw new NotOnlineError(stationId);
    const topic = stationTopic(id.userId, id.name, 'cmnd', command);
    const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
    if (Buffer.byteLength(topic) + body.length + PUBLISH_OVERHEAD_BYTES > MQTT_MAX_PACKET_BYTES) {
      throw new CommandTooLargeError(
        `The ${command} command is larger than the ${MQTT_MAX_PACKET_BYTES} bytes a station can take`,
      );
    }
    await this.publish(topic, body);
  }
}
