// Telemetry retention: a field's raw samples are kept TELEMETRY_RAW_RETENTION_DAYS and its hourly
// rollups TELEMETRY_HOUR_RETENTION_DAYS before the field's newest sample (so a satellite that fell
// silent keeps its last month in full); daily rollups are kept. Runs hourly on one instance.
import { TELEMETRY_HOUR_RETENTION_DAYS, TELEMETRY_RAW_RETENTION_DAYS } from '@tinygs/contracts';
import type { AppContext } from '../context';
import { schedulePeriodic } from '../jobs/periodic';
import type { Part } from '../part';
import { DAY_MS, fieldsAfter, pruneField } from '../repositories/telemetry';
import { seriesCacheOf } from './series-cache';

const RUN_EVERY_MS = 60 * 60 * 1000;
const FIELDS_PER_ROUND = 500;

/** One retention pass; returns the rows deleted. */
export async function pruneTelemetry(ctx: AppContext): Promise<number> {
  const db = ctx.database.db;
  let deleted = 0;
  let after: { satellite: string; field: string } | null = null;
  for (;;) {
    const fields = await fieldsAfter(db, after, FIELDS_PER_ROUND);
    for (const f of fields) {
      deleted += await pruneField(
        db,
        f.satellite,
        f.field,
        f.lastAt - TELEMETRY_RAW_RETENTION_DAYS * DAY_MS,
        f.lastAt - TELEMETRY_HOUR_RETENTION_DAYS * DAY_MS,
      );
    }
    const last = fields.at(-1);
    if (!last || fields.length < FIELDS_PER_ROUND) break;
    after = last;
  }
  if (deleted > 0) seriesCacheOf(ctx).clear();
  return deleted;
}

export const telemetryRetentionPart: Part = {
  name: 'telemetry-retention',
  async start(ctx) {
    const log = ctx.log.child({ part: 'telemetry-retention' });
    return schedulePeriodic(
      {
        name: 'telemetry-retention',
        intervalMs: RUN_EVERY_MS,
        firstRunInMs: 0,
        async run() {
          const rows = await pruneTelemetry(ctx);
          if (rows > 0) log.info({ rows }, 'old telemetry samples and hours pruned');
        },
      },
      log,
    );
  },
};
