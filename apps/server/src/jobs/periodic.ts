// The one place a periodic job of the server is scheduled. Today every instance runs its jobs
// in-process; a job that must run once across instances (element-set refresh) goes through here
// so that an election (a lease) can be put around `run` in this file alone.
import type { Logger } from 'pino';
import type { RunningPart } from '../part';

export interface PeriodicJob {
  name: string;
  intervalMs: number;
  /** delay before the first run; start-up never waits for a run */
  firstRunInMs: number;
  /** aborted when the server stops */
  run(signal: AbortSignal): Promise<void>;
}

export function schedulePeriodic(job: PeriodicJob, log: Logger): RunningPart {
  const stop = new AbortController();
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  const next = (delayMs: number) => {
    if (stop.signal.aborted) return;
    timer = setTimeout(tick, Math.max(0, delayMs));
    timer.unref();
  };
  const tick = () => {
    running = job
      .run(stop.signal)
      .catch((err: unknown) => log.error({ err, job: job.name }, 'periodic job failed'))
      .finally(() => {
        running = null;
        next(job.intervalMs);
      });
  };
  next(job.firstRunInMs);
  return {
    async stop() {
      stop.abort();
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
