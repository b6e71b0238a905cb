// `npm run bench:soak -- --minutes N` (default 10): the server on SQLite with N-station MQTT load
// (ingest-load.ts, its own process) sending `tele/rx` at 1,000 receptions/s in total. The server
// process's RSS is sampled every 10 s; growth is reported from the end of a 1-minute warm-up to
// the end (goal < 10 %). Reference in the same run: the idle server's RSS before the load, and the
// stored rate against the requested one. Writes bench/results/soak.json.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { loadConfig, createNetworkPart, readCounters, createServer } from '@tinygs/server/testing';
import { type ControlMessage, type LoadConfig, type LoadMessage } from './ingest-protocol';
import {
  BENCH_SATELLITE as SATELLITE,
  BENCH_SECRET as SECRET,
  seedBenchNetwork,
} from './ingest-seed';
import { median, round, sleep, writeResult, type Headline } from './machine';
import { spawnLoadProcess } from './processes';

const SAMPLE_MS = 10_000;
const WARMUP_MS = 60_000;
const mb = (bytes: number) => round(bytes / 2 ** 20);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string', default: '10' },
      stations: { type: 'string', default: '100' },
      rate: { type: 'string', default: '1000' },
    },
  });
  const MINUTES = Number(values.minutes);
  const STATIONS = Number(values.stations);
  const RATE = Number(values.rate);
  const dir = mkdtempSync(join(tmpdir(), 'tinygs-bench-soak-'));
  const server = await createServer(
    loadConfig({
      DATA_DIR: dir,
      PORT: '0',
      HOST: '127.0.0.1',
      MQTT_PORT: '0',
      MQTT_HOST: '127.0.0.1',
      SIMULATED_STATIONS: '0',
      LOG_LEVEL: 'warn',
      SERVER_SECRET: SECRET,
      // The load is far above any station's real rate: it measures the pipeline, not the limits.
      MQTT_RX_PER_SECOND: '100000',
    }),
    { log: pino({ level: 'warn' }), parts: [createNetworkPart({})] },
  );
  try {
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const db = server.ctx.database.db;
    const network = server.ctx.services.network;
    if (!network) throw new Error('network part not running');
    const stations = await seedBenchNetwork(db, STATIONS, 'Soak');
    await network.catalogue.refresh();
    global.gc?.();
    const idleRss = process.memoryUsage().rss;
    const config: LoadConfig = {
      mode: 'ingest',
      mqttUrl: `mqtt://127.0.0.1:${network.mqtt.port}`,
      sseUrl: null,
      stations,
      rate: RATE,
      durationMs: MINUTES * 60_000,
      warmupMs: 0,
      drainMs: 10_000,
      satellite: SATELLITE,
    };
    const child = spawnLoadProcess(config, join(dir, 'load.json'));
    const samples: { s: number; rssMb: number; heapMb: number; stored: number }[] = [];
    let started = 0;
    let timer: NodeJS.Timeout | null = null;
    const take = () => {
      const m = process.memoryUsage();
      samples.push({
        s: Math.round((performance.now() - started) / 1000),
        rssMb: mb(m.rss),
        heapMb: mb(m.heapUsed),
        stored: network.metrics.receptionsStored,
      });
      const last = samples.at(-1);
      console.log(
        `  ${last?.s} s: rss ${last?.rssMb} MB, heap ${last?.heapMb} MB, stored ${last?.stored}`,
      );
    };
    await new Promise<void>((resolve, reject) => {
      child.on('message', (m: LoadMessage) => {
        if (m.type === 'ready') {
          void (async () => {
            const deadline = Date.now() + 60_000;
            while ((await readCounters(db)).stations < STATIONS) {
              if (Date.now() > deadline)
                return reject(new Error('stations did not all come online'));
              await sleep(200);
            }
            child.send({ type: 'go' } satisfies ControlMessage);
          })();
        } else if (m.type === 'load-start') {
          started = performance.now();
          console.log(`soak: ${STATIONS} stations, ${RATE} receptions/s, ${MINUTES} min`);
          take();
          timer = setInterval(take, SAMPLE_MS);
        } else if (m.type === 'load-end') {
          if (timer) clearInterval(timer);
          take();
        } else if (m.type === 'result') resolve();
      });
      child.on('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`load exited with ${code}`)),
      );
    });
    await network.flush();
    const afterWarmup = samples.filter((x) => x.s * 1000 >= WARMUP_MS);
    // Both ends are medians of three samples, so one GC-timed sample decides neither.
    const base = median(afterWarmup.slice(0, 3).map((x) => x.rssMb));
    const end = samples.at(-1)?.rssMb ?? Number.NaN;
    const endMedian = median(samples.slice(-3).map((x) => x.rssMb));
    const growthPct = round(((endMedian - base) / base) * 100);
    const last = samples.at(-1);
    const storedRate = last && last.s > 0 ? round(last.stored / last.s) : Number.NaN;
    const headline: Headline = {
      benchmark: `Soak ${MINUTES} min, ${RATE} receptions/s: RSS growth after warm-up (%)`,
      figure: '%',
      value: growthPct,
      goal: '< 10',
      ceiling: `stored/s of requested ${RATE}/s`,
      ceilingValue: storedRate,
      ratio: round(storedRate / RATE, 3),
      pass: growthPct < 10,
    };
    const out = writeResult('soak', {
      minutes: MINUTES,
      stations: STATIONS,
      targetRate: RATE,
      storedPerSecond: storedRate,
      idleRssMb: mb(idleRss),
      rssAfterWarmupMb: base,
      rssEndMb: end,
      rssEndMedianMb: endMedian,
      growthPct,
      samples,
      headline,
    });
    console.table({
      'RSS growth after 1-min warm-up %': { value: growthPct, goal: '< 10' },
      'RSS after warm-up / end MB': { value: `${base} / ${endMedian}`, goal: '' },
      'idle server RSS before load MB': { value: mb(idleRss), goal: 'reference' },
      'stored receptions /s': { value: storedRate, goal: `${RATE} requested` },
    });
    console.log(`written: ${out}`);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
