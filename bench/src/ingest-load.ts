// Load process of the ingest benchmark: N real MQTT station connections publishing `tele/rx` at a
// target rate (open loop, skipping a connection whose socket buffer is full), and either a raw
// subscriber (broker pass-through) or an SSE reader that times publish -> new-packet.
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { lastWillTopic, stationSubscriptions, stationTopic } from '@tinygs/contracts';
import { encodeDemoFrame } from '@tinygs/decoders';
import mqtt, { type MqttClient } from 'mqtt';
import {
  BENCH_LOAD_ENV,
  type ControlMessage,
  type LoadConfig,
  type LoadMessage,
  type LoadResult,
} from './ingest-protocol';
import { frameOfRound, mixFrames } from './ingest-mix';

const config = JSON.parse(readFileSync(process.env[BENCH_LOAD_ENV] ?? '', 'utf8')) as LoadConfig;
const send = (m: LoadMessage) => process.send?.(m);
const MAX_BUFFERED_BYTES = 64 * 1024;
const TICK_MS = 5;

interface Conn {
  client: MqttClient;
  id: string;
  topic: string;
  location: [number, number];
  /** publish times waiting for their new-packet event */
  pending: number[];
}

async function connectAll(): Promise<Conn[]> {
  const conns: Conn[] = [];
  const batch = 50;
  for (let i = 0; i < config.stations.length; i += batch) {
    const group = config.stations.slice(i, i + batch);
    const clients = await Promise.all(
      group.map((s, k) =>
        mqtt.connectAsync(config.mqttUrl, {
          clientId: `bench${String(i + k).padStart(8, '0')}`,
          username: s.user,
          password: s.pass,
          protocolVersion: 4,
          reconnectPeriod: 0,
          connectTimeout: 30_000,
          will: {
            topic: lastWillTopic(s.user, s.name),
            payload: Buffer.from('0'),
            qos: 2,
            retain: false,
          },
        }),
      ),
    );
    await Promise.all(
      clients.map(async (client, k) => {
        const s = group[k];
        if (!s) return;
        await client
          .subscribeAsync(stationSubscriptions(s.user, s.name), { qos: 1 })
          .catch(() => undefined);
        if (config.mode === 'ingest') {
          await client.publishAsync(
            stationTopic(s.user, s.name, 'tele', 'welcome'),
            JSON.stringify({
              station_location: s.location,
              tx: false,
              version: 2603242,
              sat: config.satellite.name,
              modem_conf: '{}',
            }),
            { qos: 1 },
          );
        }
        conns.push({
          client,
          id: `${s.name}@${s.user}`,
          topic: stationTopic(s.user, s.name, 'tele', 'rx'),
          location: s.location,
          pending: [],
        });
      }),
    );
  }
  return conns;
}

/** A frame as published: its bytes (base64) and the radio settings it was heard with. */
interface Outgoing {
  data: string;
  satellite: string;
  norad: number;
  freq: number;
  sf: number;
  bw: number;
  cr: number;
}

const MIX = config.mix === 'captured' ? mixFrames() : null;
let counter = config.counterStart ?? 0;
/** The next frame: unique (counter, or the round of a captured frame), a packet of its own. */
function nextFrame(): Outgoing {
  counter += 1;
  if (MIX) {
    const captured = MIX[counter % MIX.length];
    if (!captured) throw new Error('no captured frames');
    return {
      ...captured,
      data: frameOfRound(captured, Math.floor(counter / MIX.length)).toString('base64'),
    };
  }
  const frame = encodeDemoFrame({
    frameCounter: counter,
    batteryMv: 3900,
    temperatureC: 20,
    txPowerMw: 500,
    solarCurrentMa: 200,
    uptimeS: counter,
  });
  const { name, norad, freq } = config.satellite;
  return {
    data: Buffer.from(frame).toString('base64'),
    satellite: name,
    norad,
    freq,
    sf: 10,
    bw: 125,
    cr: 5,
  };
}

/** How many stations hear the next frame: 1 without `copies`, else uniform in its range. */
function copiesOfNextFrame(): number {
  const c = config.copies;
  return c ? c.min + Math.floor(Math.random() * (c.max - c.min + 1)) : 1;
}

function rxPayload(conn: Conn, now: number, frame: Outgoing): string {
  return JSON.stringify({
    station_location: conn.location,
    mode: 'LoRa',
    frequency: frame.freq,
    frequency_offset: 0,
    satellite: frame.satellite,
    NORAD: frame.norad,
    rssi: -112.5,
    snr: -3.25,
    frequency_error: 1234,
    unix_GS_time: Math.floor(now / 1000),
    usec_time: now * 1000,
    crc_error: false,
    data: frame.data,
    noisy: false,
    sf: frame.sf,
    cr: frame.cr,
    bw: frame.bw,
    iIQ: false,
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function run(): Promise<void> {
  const started = Date.now();
  const conns = await connectAll();
  const byId = new Map(conns.map((c) => [c.id, c]));
  const connectMs = Date.now() - started;

  let received = 0;
  let receivedInWindow = 0;
  let loadRunning = false;
  const latencies: number[] = [];
  let loadStartedAt = 0;
  let subscriber: MqttClient | null = null;
  let closeSse = () => undefined as void;

  if (config.mode === 'raw') {
    const first = config.stations[0];
    const who = config.rawSubscriber ?? {
      username: first?.user,
      password: first?.pass,
      topic: 'tinygs/+/+/tele/rx',
    };
    subscriber = await mqtt.connectAsync(config.mqttUrl, {
      clientId: 'bench-raw-subscriber',
      username: who.username,
      password: who.password,
      protocolVersion: 4,
      reconnectPeriod: 0,
    });
    const granted = await subscriber.subscribeAsync(who.topic, { qos: 0 });
    // A broker with access control answers a refused subscription with 128.
    if (granted.some((g) => g.qos === 128)) throw new Error(`subscription to ${who.topic} refused`);
    subscriber.on('message', () => {
      received += 1;
      if (loadRunning) receivedInWindow += 1;
    });
  } else if (config.sseUrl) {
    const req = request(config.sseUrl, (res) => {
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
          if (!block.startsWith('event: new-packet')) continue;
          const now = Date.now();
          const data = JSON.parse(block.slice(block.indexOf('data: ') + 6)) as {
            stations: string[];
          };
          received += 1;
          if (loadRunning) receivedInWindow += 1;
          for (const id of data.stations) {
            const sentAt = byId.get(id)?.pending.shift();
            if (sentAt !== undefined && sentAt - loadStartedAt >= config.warmupMs)
              latencies.push(now - sentAt);
          }
        }
      });
    });
    req.on('error', () => undefined);
    req.end();
    closeSse = () => {
      req.destroy();
    };
  }

  if (config.progressFromParent)
    process.on('message', (m: ControlMessage) => {
      if (m.type === 'progress') received = m.handled;
    });
  // Receptions the server reports stored since the load started (loopOnStored).
  let stored = 0;
  process.on('message', (m: ControlMessage) => {
    if (m.type === 'stored') stored = m.n;
  });
  const done = () => (config.loopOnStored ? stored : received);

  send({ type: 'ready', connectMs });
  await new Promise<void>((resolve) =>
    process.once('message', (m: ControlMessage) => m.type === 'go' && resolve()),
  );

  let sent = 0;
  let skips = 0;
  let next = 0;
  // The frame being published and how many more stations are still to publish it (consecutive
  // connections, so the copies of one frame come from different stations).
  let frame: Outgoing | null = null;
  let copiesLeft = 0;
  loadStartedAt = Date.now();
  loadRunning = true;
  send({ type: 'load-start' });
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const now = Date.now();
      const elapsed = now - loadStartedAt;
      if (elapsed >= config.durationMs) {
        clearInterval(timer);
        resolve();
        return;
      }
      // Raw mode and the ingest capacity phase are closed-loop (at most `rate` messages not yet
      // delivered): they measure how fast the server passes messages on, not how fast this process
      // can write into socket buffers.
      const due =
        config.mode === 'raw' || config.closedLoop
          ? config.rate - (sent - done())
          : Math.floor((config.rate * elapsed) / 1000) - sent;
      let tried = 0;
      for (let i = 0; i < due && tried < conns.length;) {
        const conn = conns[next];
        next = (next + 1) % conns.length;
        tried += 1;
        if (!conn || conn.client.stream.writableLength > MAX_BUFFERED_BYTES) {
          skips += 1;
          continue;
        }
        tried = 0;
        if (copiesLeft === 0 || !frame) {
          frame = nextFrame();
          copiesLeft = copiesOfNextFrame();
        }
        copiesLeft -= 1;
        conn.client.publish(conn.topic, rxPayload(conn, now, frame), { qos: config.qos ?? 0 });
        // Only a packet's first stations are named in its event: latency is timed for single copies.
        if (!config.copies) conn.pending.push(now);
        sent += 1;
        i += 1;
      }
    }, TICK_MS);
  });
  loadRunning = false;
  send({ type: 'load-end' });

  // Let the last receptions arrive.
  const drainUntil = Date.now() + config.drainMs;
  let last = -1;
  while (Date.now() < drainUntil && done() < sent && done() !== last) {
    last = done();
    await new Promise((r) => setTimeout(r, 1000));
  }
  latencies.sort((a, b) => a - b);
  const result: LoadResult = {
    connectMs,
    sent,
    receivedInWindow,
    receivedTotal: received,
    latencyMs:
      config.mode === 'ingest'
        ? {
            p50: percentile(latencies, 50),
            p90: percentile(latencies, 90),
            p99: percentile(latencies, 99),
            max: latencies.at(-1) ?? Number.NaN,
            samples: latencies.length,
          }
        : null,
    backpressureSkips: skips,
  };
  closeSse();
  await subscriber?.endAsync(true);
  await Promise.all(conns.map((c) => c.client.endAsync(true)));
  send({ type: 'result', result });
  process.disconnect?.();
}

run().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
