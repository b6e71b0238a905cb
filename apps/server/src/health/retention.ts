// Transitions are kept HEALTH_RAW_RETENTION_DAYS; older ones are folded into one row per station
// and UTC day (online and known milliseconds, outages, the state at the end of the day), which are
// kept HEALTH_DAILY_RETENTION_DAYS. The days of a station are continuous from its first folded
// transition on, so its state at any later time is known from the last row.
import type { AppContext } from '../context';
import type { Part } from '../part';
import {
  deleteUptimeDaysBefore,
  foldTransitions,
  latestUptimeDay,
  readTransitions,
  stationsWithEventsBefore,
  type UptimeDayRow,
} from '../repositories/station-health';
import { DAY_MS, startOfUtcDay, uptimeByDay, utcDay } from './uptime';

export const HEALTH_RAW_RETENTION_DAYS = 90;
export const HEALTH_DAILY_RETENTION_DAYS = 400;
const RUN_EVERY_MS = 60 * 60 * 1000;
const STATIONS_PER_ROUND = 200;

/** Folds one station's transitions older than `cutoff` (a UTC midnight) into day rows. */
async function foldStation(ctx: AppContext, stationId: string, cutoff: number): Promise<void> {
  const db = ctx.database.db;
  const [transitions, last] = await Promise.all([
    readTransitions(db, stationId, { before: cutoff }),
    latestUptimeDay(db, stationId),
  ]);
  const first = transitions[0];
  if (!first) return;
  // Continue after the last folded day (its end state holding until the next transition), or
  // start at the first transition when nothing was folded before.
  const from = last ? Date.parse(`${last.day}T00:00:00Z`) + DAY_MS : first.at;
  const days: UptimeDayRow[] = uptimeByDay(
    last?.onlineAtEnd ?? null,
    transitions,
    from,
    cutoff,
  ).map((d) => ({
    stationId,
    day: d.day,
    onlineMs: d.onlineMs,
    knownMs: d.knownMs,
    outages: d.outages,
    onlineAtEnd: d.onlineAtEnd ?? false,
  }));
  await foldTransitions(db, stationId, cutoff, days);
}

/** One retention pass at `now`; returns the stations folded. */
export async function foldOldTransitions(ctx: AppContext, now = Date.now()): Promise<number> {
  const cutoff = startOfUtcDay(now) - HEALTH_RAW_RETENTION_DAYS * DAY_MS;
  let folded = 0;
  for (;;) {
    const stations = await stationsWithEventsBefore(ctx.database.db, cutoff, STATIONS_PER_ROUND);
    for (const id of stations) await foldStation(ctx, id, cutoff);
    folded += stations.length;
    if (stations.length < STATIONS_PER_ROUND) break;
  }
  await deleteUptimeDaysBefore(
    ctx.database.db,
    utcDay(startOfUtcDay(now) - HEALTH_DAILY_RETENTION_DAYS * DAY_MS),
  );
  return folded;
}

export const healthRetentionPart: Part = {
  name: 'health-retention',
  async start(ctx) {
    const log = ctx.log.child({ part: 'health-retention' });
    let running: Promise<void> | null = null;
    const run = () => {
      running ??= foldOldTransitions(ctx)
        .then((n) => {
          if (n > 0) log.info({ stations: n }, 'old station transitions folded into days');
        })
        .catch((err: unknown) => log.warn({ err }, 'station transition retention failed'))
        .finally(() => {
          running = null;
        });
    };
    run();
    const timer = setInterval(run, RUN_EVERY_MS);
    timer.unref();
    return {
      async stop() {
        clearInterval(timer);
        await running;
      },
    };
  },
};
