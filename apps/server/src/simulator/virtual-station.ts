// One simulated ground station: a real MQTT client that behaves like the firmware (PROTOCOL.md):
// last will, subscriptions, welcome on every connect, pings, frames it hears, and the commands it
// obeys (begine/beginp retune it, status is answered, the rest acknowledged).
import {
  LAST_WILL_PAYLOAD,
  LAST_WILL_QOS,
  ModemConfSchema,
  lastWillTopic,
  parseStationTopic,
  stationSubscriptions,
  stationTopic,
  type ModemConf,
} from '@tinygs/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import type { Logger } from 'pino';
import type { StationSpec } from './layout';
import type { SimSatellite } from './sky';

export const FIRMWARE_VERSION = 2603242;

export interface StationCredentials {
  user: string;
  pass: string;
}

export interface Tuning {
  satellite: SimSatellite;
  modem: ModemConf;
}

export class VirtualStation {
  client: MqttClient | null = null;
  tuning: Tuning | null = null;
  private readonly connectedAt = Date.now();

  constructor(
    readonly spec: StationSpec,
    readonly credentials: StationCredentials,
    private readonly findSatellite: (name: string) => SimSatellite | undefined,
    private readonly onRetune: (station: VirtualStation) => void,
    private readonly log: Logger,
  ) {}

  get id(): string {
    return `${this.spec.name}@${this.credentials.user}`;
  }

  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  tune(satellite: SimSatellite, modem: ModemConf = satellite.config): void {
    this.tuning = { satellite, modem: { ...modem, sat: satellite.name, NORAD: satellite.norad } };
    this.onRetune(this);
  }

  connect(brokerUrl: string): void {
    const { user, pass } = this.credentials;
    const client = mqtt.connect(brokerUrl, {
      clientId: this.spec.mac,
      username: user,
      password: pass,
      protocolVersion: 4,
      keepalive: 60,
      // The firmware backs off for much longer; a simulation should come back quickly.
      reconnectPeriod: 5_000 + Math.floor(Math.random() * 5_000),
      connectTimeout: 20_000,
      will: {
        topic: lastWillTopic(user, this.spec.name),
        payload: Buffer.from(LAST_WILL_PAYLOAD),
        qos: LAST_WILL_QOS,
        retain: false,
      },
    });
    this.client = client;
    client.on('connect', () => {
      client.subscribe(stationSubscriptions(user, this.spec.name), { qos: 0 });
      this.publish('tele', 'welcome', this.welcome());
    });
    client.on('message', (topic, payload) => this.onCommand(topic, payload));
    client.on('error', (err) =>
      this.log.debug({ station: this.id, err: err.message }, 'simulated station connection error'),
    );
  }

  ping(): void {
    this.publish('tele', 'ping', {
      Vbat: 4.05,
      Mem: 118_000 + Math.floor(Math.random() * 4000),
      MinMem: 96_000,
      MaxBlk: 65_524,
      RSSI: this.spec.wifiRssiDbm + Math.round(Math.random() * 4 - 2),
      radio: 0,
      InstRSSI: -110 + Math.round(Math.random() * 6),
    });
  }

  publish(kind: 'tele' | 'stat', name: string, payload: unknown): void {
    if (!this.client?.connected) return;
    const body = Buffer.isBuffer(payload) ? payload : JSON.stringify(payload);
    this.client.publish(stationTopic(this.credentials.user, this.spec.name, kind, name), body, {
      qos: 0,
    });
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = null;
    if (client) await client.endAsync(true).catch(() => undefined);
  }

  private welcome(): Record<string, unknown> {
    return {
      station_location: this.spec.location,
      tx: this.spec.tx,
      time: Math.floor(Date.now() / 1000),
      version: FIRMWARE_VERSION,
      git_version: `v${FIRMWARE_VERSION}`,
      sat: this.tuning?.satellite.name ?? '',
      ip: `192.168.${1 + (this.spec.index % 200)}.${10 + (this.spec.index % 240)}`,
      modem_conf: JSON.stringify(this.tuning?.modem ?? {}),
      board: this.spec.index % 10,
      mac: this.spec.mac,
      seconds: Math.floor((Date.now() - this.connectedAt) / 1000),
      Vbat: 4.1,
      Mem: 120_000,
      chip: 'ESP32-D0WDQ6',
      radioChip: this.tuning?.modem.freq && this.tuning.modem.freq > 2000 ? 'SX1280' : 'SX1278',
    };
  }

  private onCommand(topic: string, payload: Buffer): void {
    const t = parseStationTopic(topic);
    const command = t?.kind === 'cmnd' ? t.name : topic.split('/').pop();
    switch (command) {
      case 'begine':
      case 'beginp': {
        let json: unknown;
        try {
          json = JSON.parse(payload.toString('utf8'));
        } catch {
          json = null;
        }
        const modem = ModemConfSchema.safeParse(json);
        const satellite =
          modem.success && modem.data.sat ? this.findSatellite(modem.data.sat) : undefined;
        if (modem.success && satellite) this.tune(satellite, modem.data);
        this.ack(command, modem.success ? 0 : 1);
        return;
      }
      case 'sat': {
        try {
          const [name] = JSON.parse(payload.toString('utf8')) as [string, number];
          const satellite = this.findSatellite(name);
          if (satellite)
            this.tune(
              satellite,
              this.tuning?.satellite.name === name ? this.tuning.modem : satellite.config,
            );
        } catch {
          // firmware ignores a malformed sat command
        }
        return;
      }
      case 'status':
        this.publish('stat', 'status', this.status());
        return;
      case 'log':
      case 'weblogin':
        return;
      case undefined:
        return;
      default:
        // freq, tx, filter, reset, update: acknowledged as done
        this.ack(command, 0);
    }
  }

  private ack(command: string, code: number): void {
    this.publish('stat', command, Buffer.from([code & 0xff, code >> 8]));
  }

  private status(): Record<string, unknown> {
    const modem = this.tuning?.modem;
    const now = Date.now();
    return {
      station_location: this.spec.location,
      version: FIRMWARE_VERSION,
      board: this.spec.index % 10,
      tx: this.spec.tx,
      mode: modem?.mode ?? 'LoRa',
      frequency: modem?.freq ?? 0,
      satellite: this.tuning?.satellite.name ?? '',
      NORAD: this.tuning?.satellite.norad ?? 0,
      ...(modem?.mode === 'LoRa' ? { sf: modem.sf, cr: modem.cr, bw: modem.bw } : {}),
      rssi: -118,
      snr: -6,
      frequency_error: 0,
      crc_error: false,
      unix_GS_time: Math.floor(now / 1000),
      usec_time: now * 1000,
    };
  }
}
