// The scheduled element-set refresh (TLE_SOURCES every TLE_REFRESH_HOURS). The first run comes a
// few seconds after start-up, or when the interval since the last run (stored) is up, so restarts
// do not ask the sources again; a failed source is a log line and the held sets stay.
import { schedulePeriodic } from '../jobs/periodic';
import type { Part } from '../part';
import { lastSourceCheck } from '../repositories/element-sets';
import { refreshElementSets } from './refresh';

export interface ElementSetsPartOptions {
  /** the earliest first run after start-up (default 5 s) */
  firstRunAfterMs?: number;
}

export function createElementSetsPart(options: ElementSetsPartOptions = {}): Part {
  return {
    name: 'element-sets',
    async start(ctx) {
      const { sources, refreshMs } = ctx.config.elementSets;
      const log = ctx.log.child({ part: 'element-sets' });
      if (sources.length === 0) {
        log.info('TLE_SOURCES is not set: element sets are not refreshed');
        return null;
      }
      const last = await lastSourceCheck(ctx.database.db);
      const due = last === null ? 0 : last + refreshMs - Date.now();
      return schedulePeriodic(
        {
          name: 'element-set refresh',
          intervalMs: refreshMs,
          firstRunInMs: Math.max(options.firstRunAfterMs ?? 5_000, due),
          async run(signal) {
            const report = await refreshElementSets(ctx, { signal });
            const summary = {
              updated: report.updated.length,
              unchanged: report.unchanged,
              rejected: report.rejectedTotal,
              failedRequests: report.sources.reduce((n, s) => n + s.failed, 0),
            };
            if (report.ok) log.info(summary, 'element sets refreshed');
            else log.warn(summary, 'element-set refresh: no source answered; held sets kept');
          },
        },
        log,
      );
    },
  };
}

export const elementSetsPart = createElementSetsPart();
