// `npm run bench:ingest`: 1,000 MQTT station connections send `tele/rx` into the real server on
// SQLite. Reports receptions stored per second over the load window, publish -> SSE new-packet
// latency, and, in the same run, the raw pass-through rate of the same broker library with no
// ingest (publish -> subscriber) as the ceiling. The ceiling is a closed-loop maximum, so the ratio
// is taken against the server's own closed-loop maximum (the capacity phase: at most
// --capacity-window receptions published and not yet announced as new-packet); the stored rate of
// the fixed-rate window can never exceed the offered --rate. Writes bench/results/ingest.json.
//
// The fixed-rate phase sends demo frames (one station each, so every publish is timed to its
// event). The raw and capacity phases send the realistic mix (--mix captured, ingest-mix.ts): the
// real satellites' captured frames, each heard by 1-20 stations (--copies), at QoS 1 (--qos); the
// raw ceiling is measured before and after the ingest phases, and the ratio is taken against the
// higher of the two. A last closed-loop phase under the CPU profiler (--profile-seconds) gives the
// main thread's microseconds per reception by stage (ingest-profile.ts).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Aedes } from 'aedes';
import { pino } from 'pino';
import {
  loadConfig,
  BROKER_TUNING,
  createNetworkPart,
  readCounters,
  createServer,
} from '@tinygs/server/testing';
import {
  type ControlMessage,
  type LoadConfig,
  type LoadMessage,
  type LoadResult,
} from './ingest-protocol';
import {
  BENCH_SATELLITE as SATELLITE,
  BENCH_SECRET as SECRET,
  seedBenchNetwork,
} from './ingest-seed';
import { mixFrames, seedCapturedSatellites } from './ingest-mix';
import { startStageProfile, startWorkerProfiles, type StageProfile } from './ingest-profile';
import { machine, round } from './machine';
import { spawnLoadProcess } from './processes';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    stations: { type: 'string', default: '1000' },
    rate: { type: 'string', default: '5500' },
    seconds: { type: 'string', default: '60' },
    // raw phase: messages published but not yet delivered to the subscriber, at most
    'raw-window': { type: 'string', default: '2000' },
    'raw-seconds': { type: 'string', default: '20' },
    'flush-ms': { type: 'string', default: '50' },
    // capacity phase (closed loop); 0 skips it
    'capacity-seconds': { type: 'string', default: '20' },
    'capacity-window': { type: 'string', default: '4000' },
    // the frames of the raw, capacity and profile phases: captured (real satellites) or demo
    mix: { type: 'string', default: 'captured' },
    // stations per frame in those phases, "min-max"
    copies: { type: 'string', default: '1-20' },
    qos: { type: 'string', default: '1' },
    // closed loop under the CPU profiler, for the main thread's time by stage; 0 skips it
    'profile-seconds': { type: 'string', default: '10' },
  },
});
const STATIONS = Number(values.stations);
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
const RAW_WINDOW = Number(values['raw-window']);
const RAW_SECONDS = Number(values['raw-seconds']);
const CAPACITY_SECONDS = Number(values['capacity-seconds']);
const CAPACITY_WINDOW = Number(values['capacity-window']);
const PROFILE_SECONDS = Number(values['profile-seconds']);
const MIX = values.mix === 'demo' ? 'demo' : 'captured';
const [COPIES_MIN = 1, COPIES_MAX = COPIES_MIN] = values.copies.split('-').map(Number);
const QOS = values.qos === '0' ? 0 : 1;
/** what the raw, capacity and profile phases send */
const MIX_CONFIG = {
  mix: MIX,
  qos: QOS,
  ...(COPIES_MAX > 1 ? { copies: { min: COPIES_MIN, max: COPIES_MAX } } : {}),
} satisfies Partial<LoadConfig>;

interface Observed {
  result: LoadResult;
  windowMs: number;
  storedInWindow: number;
  /** this process's main thread (the broker and the ingest) busy over the window, ms */
  busyMs: number;
  /** CPU time over the window, ms: the main thread's, and the process's other threads' */
  cpuMs: { main: number; others: number };
}

/**
 * CPU time of this process's main thread and of the whole process, ms. Unlike busy (wall) time
 * it does not grow while other work on the machine holds the core. Linux (/proc) only.
 */
function cpuTimes(): { main: number; all: number } {
  const all = process.cpuUsage();
  let main = Number.NaN;
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime (fields 14 and 15 of the line), in clock ticks of 10 ms
    main = (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    // not Linux: main-thread CPU time unknown
  }
  return { main, all: (all.user + all.system) / 1000 };
}

/** Runs one load process; `onReady` decides when it may start, `sample` reads the stored count. */
function runLoad(
  config: LoadConfig,
  dir: string,
  onReady: () => Promise<void>,
  sample: () => number,
  onEnd?: () => void,
): Promise<Observed> {
  const child = spawnLoadProcess(config, join(dir, `load-${config.mode}.json`));
  let startedAt = 0;
  let startStored = 0;
  let windowMs = 0;
  let storedInWindow = 0;
  let utilisation = performance.eventLoopUtilization();
  let busyMs = 0;
  let cpuAtStart = cpuTimes();
  let cpuMs = { main: 0, others: 0 };
  // closed loop on stored receptions: the count goes to the load process as it moves
  let reporter: NodeJS.Timeout | undefined;
  const stopReporting = () => clearInterval(reporter);
  return new Promise((resolve, reject) => {
    child.on('message', (m: LoadMessage) => {
      if (m.type === 'ready') {
        onReady().then(
          () => child.send({ type: 'go' } satisfies ControlMessage),
          (err: unknown) => reject(err instanceof Error ? err : new Error(String(err))),
        );
      } else if (m.type === 'load-start') {
        startedAt = performance.now();
        utilisation = performance.eventLoopUtilization();
        cpuAtStart = cpuTimes();
        startStored = sample();
        if (config.loopOnStored) {
          reporter = setInterval(() => {
            if (child.connected)
              // the process may be gone between the check and the write: nothing to tell then
              child.send(
                { type: 'stored', n: sample() - startStored } satisfies ControlMessage,
                () => undefined,
              );
          }, 10);
        }
      } else if (m.type === 'load-end') {
        windowMs = performance.now() - startedAt;
        busyMs = performance.eventLoopUtilization(utilisation).active;
        const cpu = cpuTimes();
        cpuMs = {
          main: cpu.main - cpuAtStart.main,
          others: cpu.all - cpuAtStart.all - (cpu.main - cpuAtStart.main),
        };
        storedInWindow = sample() - startStored;
        onEnd?.();
      } else if (m.type === 'result') {
        stopReporting();
        resolve({ result: m.result, windowMs, storedInWindow, busyMs, cpuMs });
      }
    });
    child.on('exit', (code) => {
      stopReporting();
      if (code !== 0) reject(new Error(`load process (${config.mode}) exited with ${code}`));
    });
  });
}

/** The same broker library and tuning as the server's, without authentication or ingest. */
function rawBroker() {
  return new Promise<{ port: number; close(): Promise<void>; aedes: Aedes }>((resolve) => {
    void Aedes.createBroker({ ...BROKER_TUNING }).then((aedes) => {
      const server = createNetServer(aedes.handle);
      server.listen(0, '127.0.0.1', () => {
        const addr = server.address();
        resolve({
          port: typeof addr === 'object' && addr ? addr.port : 0,
          aedes,
          close: () =>
            new Promise<void>((done) => {
              aedes.close(() => server.close(() => done()));
            }),
        });
      });
    });
  });
}

const perSecond = (run: Observed | null, n: (r: Observed) => number) =>
  run ? n(run) / (run.windowMs / 1000) : Number.NaN;

async function main(): Promise<void> {
  const loadStart = round(loadavg()[0] ?? 0, 2);
  const dir = mkdtempSync(join(tmpdir(), 'tinygs-bench-ingest-'));
  const config = loadConfig({
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
  });
  const server = await createServer(config, {
    log: pino({ level: 'warn' }),
    parts: [createNetworkPart({ flushIntervalMs: Number(values['flush-ms']) })],
  });
  try {
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = server.app.server.address();
    const httpUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    const db = server.ctx.database.db;
    const network = server.ctx.services.network;
    if (!network) throw new Error('network part not running');

    const stations = await seedBenchNetwork(db, STATIONS, 'Bench');
    if (MIX === 'captured') await seedCapturedSatellites(db);
    await network.catalogue.refresh();
    const base = { stations, warmupMs: 5_000, drainMs: 30_000, satellite: SATELLITE };

    /** The same broker library and tuning, no ingest: the ceiling, measured twice. */
    const measureRaw = async (when: string): Promise<Observed & { load: number[] }> => {
      console.log(
        `raw broker pass-through (${when}): ${STATIONS} connections, ${RAW_SECONDS} s, as fast as it delivers ...`,
      );
      const loadBefore = round(loadavg()[0] ?? 0, 2);
      const raw = await rawBroker();
      const run = await runLoad(
        {
          ...base,
          ...MIX_CONFIG,
          mode: 'raw',
          mqttUrl: `mqtt://127.0.0.1:${raw.port}`,
          sseUrl: null,
          rate: RAW_WINDOW,
          durationMs: RAW_SECONDS * 1000,
        },
        dir,
        async () => undefined,
        () => 0,
      );
      await raw.close();
      return { ...run, load: [loadBefore, round(loadavg()[0] ?? 0, 2)] };
    };
    const rawBefore = RAW_SECONDS > 0 ? await measureRaw('before the ingest') : null;

    const ingestConfig = {
      ...base,
      mode: 'ingest' as const,
      mqttUrl: `mqtt://127.0.0.1:${network.mqtt.port}`,
      sseUrl: `${httpUrl}/sse/events`,
    };
    const allOnline = async () => {
      // Every station's welcome must be stored before its receptions count.
      const deadline = Date.now() + 60_000;
      while ((await readCounters(db)).stations < STATIONS) {
        if (Date.now() > deadline) throw new Error('stations did not all come online');
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    const storedSoFar = () => network.metrics.receptionsStored;

    // --seconds 0 skips the fixed-rate phase
    let ingestRun: Observed | null = null;
    if (SECONDS > 0) {
      console.log(`ingest: ${STATIONS} stations, ${SECONDS} s at ${RATE} receptions/s ...`);
      ingestRun = await runLoad(
        { ...ingestConfig, rate: RATE, durationMs: SECONDS * 1000 },
        dir,
        allOnline,
        storedSoFar,
      );
      await network.flush();
    }
    const slowestBatchMs = network.metrics.maxBatchMs;

    /** Closed loop on the mix: at most CAPACITY_WINDOW receptions published and not yet stored. */
    const closedLoop = (
      seconds: number,
      counterStart: number,
      onReady = allOnline,
      onEnd?: () => void,
    ) =>
      runLoad(
        {
          ...ingestConfig,
          ...MIX_CONFIG,
          rate: CAPACITY_WINDOW,
          closedLoop: true,
          loopOnStored: true,
          counterStart,
          durationMs: seconds * 1000,
        },
        dir,
        onReady,
        storedSoFar,
        onEnd,
      );
    let capacityRun: Observed | null = null;
    if (CAPACITY_SECONDS > 0) {
      console.log(
        `ingest capacity (${MIX} frames, ${values.copies} stations each, QoS ${QOS}): ${CAPACITY_SECONDS} s, at most ${CAPACITY_WINDOW} receptions not yet stored ...`,
      );
      capacityRun = await closedLoop(CAPACITY_SECONDS, 1_000_000_000);
    }
    const capacityRate = perSecond(capacityRun, (r) => r.storedInWindow);
    await network.flush();

    let profile: (StageProfile & { receptions: number }) | null = null;
    let profileRun: Observed | null = null;
    let workerProfiles: Record<string, StageProfile> | null = null;
    if (PROFILE_SECONDS > 0) {
      console.log(`main thread by stage: ${PROFILE_SECONDS} s closed loop under the profiler ...`);
      // From the start of the load to its end (not the drain): the time of the messages the
      // server took in meanwhile.
      let stop: (() => Promise<StageProfile>) | null = null;
      let stopped: Promise<StageProfile> | null = null;
      let stopWorkers: (() => Promise<Record<string, StageProfile>>) | null = null;
      let workersStopped: Promise<Record<string, StageProfile>> | null = null;
      let messagesAtStart = 0;
      let messages = 0;
      profileRun = await closedLoop(
        PROFILE_SECONDS,
        2_000_000_000,
        async () => {
          await allOnline();
          messagesAtStart = network.metrics.messagesReceived;
          stop = await startStageProfile();
          stopWorkers = await startWorkerProfiles();
        },
        () => {
          messages = network.metrics.messagesReceived - messagesAtStart;
          stopped = (stop as (() => Promise<StageProfile>) | null)?.() ?? null;
          workersStopped =
            (stopWorkers as (() => Promise<Record<string, StageProfile>>) | null)?.() ?? null;
        },
      );
      const result = (await (stopped as Promise<StageProfile> | null)) ?? null;
      if (result) profile = { ...result, receptions: messages };
      workerProfiles = await (workersStopped as Promise<Record<string, StageProfile>> | null);
      await network.flush();
    }
    const rawAfter = RAW_SECONDS > 0 ? await measureRaw('after the ingest') : null;

    const storedRows = await db
      .selectFrom('receptions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const rawRates = [rawBefore, rawAfter].map((r) =>
      perSecond(r, (o) => o.result.receivedInWindow),
    );
    const rawRate = Math.max(...rawRates.filter((r) => Number.isFinite(r)));
    const storedRate = perSecond(ingestRun, (r) => r.storedInWindow);
    const publishedTotal =
      (ingestRun?.result.sent ?? 0) +
      (capacityRun?.result.sent ?? 0) +
      (profileRun?.result.sent ?? 0);
    const latency = ingestRun?.result.latencyMs ?? null;
    const ratioToRaw = round(capacityRate / rawRate, 3);
    // Microseconds of main-thread time per reception of the profiled phase, by stage.
    const usPerReception = (ms: number) =>
      profile && profile.receptions > 0 ? round((ms * 1000) / profile.receptions, 1) : Number.NaN;
    const stages =
      profile &&
      Object.fromEntries(
        Object.entries(profile.byStageMs)
          .sort((a, b) => b[1] - a[1])
          .map(([stage, ms]) => [stage, usPerReception(ms)]),
      );
    // CPU microseconds per message: the main thread's, and the writer and checkpointer threads'
    const perMessage = (cpu: Observed['cpuMs'], n: number) => ({
      mainThread: round((cpu.main * 1000) / n, 1),
      otherThreads: round((cpu.others * 1000) / n, 1),
    });
    const profileCpuUs =
      profile && profileRun ? round((profileRun.cpuMs.main * 1000) / profile.receptions, 1) : null;
    const scaledTo = (byStage: Record<string, number>, total: number | null) => {
      const sum = Object.values(byStage).reduce((a, b) => a + b, 0);
      return Object.fromEntries(
        Object.entries(byStage).map(([k, v]) => [k, round(((total ?? NaN) * v) / sum, 1)]),
      );
    };
    const rawReport = (r: (Observed & { load: number[] }) | null, rate: number) =>
      r && {
        seconds: round(r.windowMs / 1000),
        published: r.result.sent,
        receivedPerSecond: Math.round(rate),
        loadAverage1m: r.load,
        // main thread busy (event-loop utilisation) per message passed on
        busyUsPerMessage: round((r.busyMs * 1000) / r.result.receivedInWindow, 1),
        busyShare: round(r.busyMs / r.windowMs, 2),
        cpuUsPerMessage: perMessage(r.cpuMs, r.result.receivedInWindow),
      };
    const report = {
      date: new Date().toISOString(),
      // Other work on the machine shows in the figures; the load average says how much there was.
      machine: {
        ...machine(),
        loadAverage1m: loadStart,
        loadAverage1mAfter: round(loadavg()[0] ?? 0, 2),
      },
      storage: 'sqlite',
      stations: STATIONS,
      ingest: {
        frames: 'demo, one station each',
        targetRate: RATE,
        seconds: round((ingestRun?.windowMs ?? 0) / 1000),
        published: ingestRun?.result.sent ?? 0,
        storedInWindow: ingestRun?.storedInWindow ?? 0,
        storedPerSecond: Math.round(storedRate),
        // every reception of all ingest phases
        storedTotal: Number(storedRows.n),
        publishedTotal,
        sseEvents: ingestRun?.result.receivedTotal ?? 0,
        latencyMs: latency,
        backpressureSkips: ingestRun?.result.backpressureSkips ?? 0,
        slowestBatchMs: Math.round(slowestBatchMs),
        dropped: network.metrics.snapshot().dropped,
      },
      // the raw, capacity and profile phases
      mix: {
        frames: MIX,
        // captured frames that keep their decoding outcome in every round (ingest-mix.ts)
        distinctFrames: MIX === 'captured' ? mixFrames().length : null,
        copies: MIX_CONFIG.copies ?? null,
        qos: QOS,
      },
      rawBroker: rawBefore && {
        maxInFlight: RAW_WINDOW,
        // the ceiling: the higher of the two measurements
        receivedPerSecond: Math.round(rawRate),
        before: rawReport(rawBefore, rawRates[0] ?? Number.NaN),
        after: rawReport(rawAfter, rawRates[1] ?? Number.NaN),
      },
      capacity: capacityRun && {
        maxNotYetStored: CAPACITY_WINDOW,
        seconds: round(capacityRun.windowMs / 1000),
        published: capacityRun.result.sent,
        storedPerSecond: Math.round(capacityRate),
        packetsAnnounced: capacityRun.result.receivedTotal,
        // main thread busy (event-loop utilisation) per reception stored: at most twice the raw
        // broker's per message for a ratio of 0.5 while the main thread is the bottleneck
        busyUsPerReception: round((capacityRun.busyMs * 1000) / capacityRun.storedInWindow, 1),
        busyShare: round(capacityRun.busyMs / capacityRun.windowMs, 2),
        cpuUsPerReception: perMessage(capacityRun.cpuMs, capacityRun.storedInWindow),
      },
      mainThreadByStage: profile && {
        seconds: round(profile.wallMs / 1000),
        receptions: profile.receptions,
        busyUsPerReception: usPerReception(profile.busyMs),
        usPerReception: stages,
        // the main thread's CPU time per reception over the same window, split in the profile's
        // shares (the profile's own times are wall time, long while other work holds the core)
        cpuUsPerReception: profileCpuUs,
        cpuUsPerReceptionByStage: stages && scaledTo(stages, profileCpuUs),
        topFunctionsMs: profile.topFunctionsMs,
      },
      // the writer and checkpointer threads over the same window: busy (wall) microseconds per
      // reception by stage
      workerThreadsByStage:
        workerProfiles &&
        Object.fromEntries(
          Object.entries(workerProfiles).map(([name, p]) => [
            name,
            {
              busyUsPerReception: usPerReception(p.busyMs),
              usPerReception: Object.fromEntries(
                Object.entries(p.byStageMs)
                  .sort((a, b) => b[1] - a[1])
                  .map(([stage, ms]) => [stage, usPerReception(ms)]),
              ),
              topFunctionsMs: p.topFunctionsMs,
            },
          ]),
        ),
      // closed-loop ingest maximum (mix) / closed-loop broker maximum (same mix)
      ratioToRaw,
      // the fixed-rate window's stored rate / raw: bounded by --rate / raw
      ratioToRawAtTargetRate: round(storedRate / rawRate, 3),
      goals: {
        storedPerSecondAtLeast5000: storedRate >= 5000,
        p99Below250ms: (latency?.p99 ?? Infinity) < 250,
        atLeastHalfOfRaw: capacityRate >= rawRate / 2,
      },
      headlines: [
        {
          benchmark: `Ingest, ${STATIONS} stations: receptions stored/s (demo frames)`,
          figure: '/s',
          value: Math.round(storedRate),
          goal: '>= 5000',
          ceiling: 'raw broker pass-through (msg/s)',
          ceilingValue: Math.round(rawRate),
          ratio: round(storedRate / rawRate, 3),
          pass: storedRate >= 5000,
        },
        {
          benchmark: 'Ingest: publish -> SSE p99 (ms)',
          figure: 'ms',
          value: latency?.p99 ?? Number.NaN,
          goal: '< 250',
          ceiling: '',
          ceilingValue: Number.NaN,
          ratio: Number.NaN,
          pass: (latency?.p99 ?? Infinity) < 250,
        },
        ...(capacityRun
          ? [
              {
                benchmark: `Ingest capacity, ${MIX} frames x ${values.copies} stations, QoS ${QOS}: receptions stored/s`,
                figure: '/s',
                value: Math.round(capacityRate),
                goal: '>= 0.5 of raw',
                ceiling: 'raw broker pass-through, same mix (msg/s)',
                ceilingValue: Math.round(rawRate),
                ratio: ratioToRaw,
                pass: capacityRate >= rawRate / 2,
              },
            ]
          : []),
      ],
    };
    const resultsDir = join(here, '..', 'results');
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(join(resultsDir, 'ingest.json'), JSON.stringify(report, null, 2) + '\n');
    console.table({
      'receptions stored /s': { value: report.ingest.storedPerSecond, goal: '>= 5000' },
      'publish -> SSE p50 ms': { value: latency?.p50, goal: '' },
      'publish -> SSE p99 ms': { value: latency?.p99, goal: '< 250' },
      'raw broker before /s': { value: report.rawBroker?.before?.receivedPerSecond, goal: '' },
      'raw broker after /s': { value: report.rawBroker?.after?.receivedPerSecond, goal: '' },
      'ingest capacity stored /s': { value: report.capacity?.storedPerSecond, goal: '' },
      'capacity / raw': { value: report.ratioToRaw, goal: '>= 0.5' },
      'published / stored total': {
        value: `${report.ingest.publishedTotal} / ${report.ingest.storedTotal}`,
        goal: 'equal',
      },
    });
    if (stages) {
      console.log(
        `main thread, us per reception (busy ${report.mainThreadByStage?.busyUsPerReception}):`,
      );
      console.table(stages);
    }
    console.log(`written: ${join(resultsDir, 'ingest.json')}`);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
