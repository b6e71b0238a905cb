// Station-side helpers for the network suites: real MQTT clients speaking the firmware protocol
// (PROTOCOL.md) to the listening broker, and payload builders with firmware field names.
import { request, type IncomingMessage } from 'node:http';
import {
  LAST_WILL_PAYLOAD,
  lastWillTopic,
  stationSubscriptions,
  stationTopic,
} from '@tinygs/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import type { BusEvents, EventBus } from '../src/events';
import realFrames from '../src/simulator/real-frames.json';
import type { TestServer } from './harness';
import type { BuiltUser } from './factories';

export const NORBI_FRAME: string = realFrames.Norbi[0] ?? '';
export const NORBI_FRAME_2: string = realFrames.Norbi[1] ?? '';

export function mqttPort(server: TestServer): number {
  const network = server.ctx.services.network;
  if (!network) throw new Error('network part not running');
  return network.mqtt.port;
}

export async function connectAs(
  server: TestServer,
  credentials: { username?: string; password?: string },
  will?: { userId: string; station: string },
  clientId = `test${Math.random().toString(16).slice(2, 14)}`,
): Promise<MqttClient> {
  return mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort(server)}`, {
    ...credentials,
    protocolVersion: 4,
    reconnectPeriod: 0,
    connectTimeout: 5_000,
    clientId,
    ...(will
      ? {
          will: {
            topic: lastWillTopic(will.userId, will.station),
            payload: Buffer.from(LAST_WILL_PAYLOAD),
            qos: 2,
            retain: false,
          },
        }
      : {}),
  });
}

/** Connects like the firmware: last will, subscriptions, then `tele/welcome`. */
export async function connectStation(
  server: TestServer,
  user: BuiltUser,
  station: string,
  welcome: Record<string, unknown> = {},
): Promise<MqttClient> {
  const client = await connectAs(
    server,
    { username: user.id, password: user.password },
    { userId: user.id, station },
  );
  await client.subscribeAsync(stationSubscriptions(user.id, station), { qos: 1 });
  await client.publishAsync(
    stationTopic(user.id, station, 'tele', 'welcome'),
    JSON.stringify(welcomePayload(welcome)),
    { qos: 1 },
  );
  return client;
}

export function welcomePayload(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    station_location: [40.4168, -3.7038],
    tx: true,
    time: Math.floor(Date.now() / 1000),
    version: 2603242,
    git_version: 'v2603242',
    sat: 'Norbi',
    ip: '192.168.1.50',
    modem_conf:
      '{"mode":"LoRa","freq":436.703,"bw":250,"sf":10,"cr":5,"sw":18,"pwr":5,"cl":120,"pl":8,"gain":0,"crc":true,"fldro":1,"sat":"Norbi","NORAD":46494}',
    board: 1,
    mac: 'A1B2C3D4E5F6',
    seconds: 12,
    Vbat: 4.1,
    Mem: 120000,
    chip: 'ESP32',
    radioChip: 'SX1278',
    ...overrides,
  };
}

export function rxPayload(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const now = Date.now();
  return {
    station_location: [40.4168, -3.7038],
    mode: 'LoRa',
    frequency: 436.703,
    frequency_offset: 0,
    satellite: 'Norbi',
    NORAD: 46494,
    rssi: -110.5,
    snr: -4.25,
    frequency_error: 1250.5,
    unix_GS_time: Math.floor(now / 1000),
    usec_time: now * 1000,
    crc_error: false,
    data: NORBI_FRAME,
    noisy: false,
    sf: 10,
    cr: 5,
    bw: 250,
    iIQ: false,
    ...overrides,
  };
}

export async function publishTele(
  client: MqttClient,
  user: BuiltUser,
  station: string,
  name: string,
  payload: unknown,
): Promise<void> {
  const body =
    typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : JSON.stringify(payload);
  await client.publishAsync(stationTopic(user.id, station, 'tele', name), body, { qos: 1 });
}

/** SUBACK return codes of one subscription (128 = refused); mqtt.js rejects on a refusal. */
export async function subscribeCodes(client: MqttClient, topic: string): Promise<number[]> {
  try {
    const granted = await client.subscribeAsync(topic, { qos: 1 });
    return granted.map((g) => g.qos);
  } catch (err) {
    const packet = (err as { packet?: { granted?: (number | object)[] } }).packet;
    if (!packet?.granted) throw err;
    return packet.granted.map((g) => (typeof g === 'number' ? g : -1));
  }
}

/** Polls until `probe` returns something truthy. */
export async function waitFor<T>(
  probe: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The first `name` event published on `bus` from now on that `matches` (any, by default). */
export function nextBusEvent<K extends keyof BusEvents>(
  bus: EventBus,
  name: K,
  matches: (data: BusEvents[K]) => boolean = () => true,
): Promise<BusEvents[K]> {
  return new Promise((resolve) => {
    const stop = bus.subscribe(name, (data) => {
      if (!matches(data)) return;
      stop();
      resolve(data);
    });
  });
}

export function closed(client: MqttClient): Promise<void> {
  return new Promise((resolve) => {
    if (!client.connected) resolve();
    else client.once('close', () => resolve());
  });
}

export interface SseEvent {
  event: string;
  data: string;
}

/** Opens GET /sse/events (or `path`) and collects the named events it receives. */
export async function openEventStream(
  url: string,
  headers: Record<string, string> = {},
  path = '/sse/events',
): Promise<{ events: SseEvent[]; response: IncomingMessage; close(): void }> {
  const events: SseEvent[] = [];
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}${path}`,
      { headers: { accept: 'text/event-stream', ...headers } },
      (response) => {
        let buffer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          buffer += chunk;
          let end = buffer.indexOf('\n\n');
          while (end >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const lines = block.split('\n');
            const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
            const data = lines
              .filter((l) => l.startsWith('data: '))
              .map((l) => l.slice(6))
              .join('\n');
            if (event) events.push({ event, data });
            end = buffer.indexOf('\n\n');
          }
        });
        response.on('error', () => undefined);
        resolve({ events, response, close: () => req.destroy() });
      },
    );
    req.on('error', reject);
    req.end();
  });
}
