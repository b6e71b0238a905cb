// Main-thread handle on the satellite propagator: a module worker when available, otherwise the
// same code in-thread. Answers arrive in request order; stale ones are the caller's to ignore.
import type { TickRequest, TickResult } from './propagator';
import type { TleRecord } from './tleText';

export type WorkerRequest =
  | { type: 'load'; records: (TleRecord | null)[] }
  | { type: 'tick'; id: number; request: TickRequest };

export interface WorkerResponse {
  id: number;
  result: TickResult;
}

export interface PositionEngine {
  load(records: (TleRecord | null)[]): void;
  tick(request: TickRequest): Promise<TickResult>;
  dispose(): void;
}

/** Loaded on demand so the normal (worker) path keeps SGP4 out of the page's own chunks. */
export function createInlineEngine(): PositionEngine {
  const propagator = import('./propagator').then(({ Propagator }) => new Propagator());
  return {
    load: (records) => void propagator.then((p) => p.load(records)),
    tick: (request) => propagator.then((p) => p.tick(request)),
    dispose: () => undefined,
  };
}

export function createPositionEngine(): PositionEngine {
  if (typeof Worker === 'undefined') return createInlineEngine();
  let worker: Worker;
  try {
    worker = new Worker(new URL('./positions.worker.ts', import.meta.url), { type: 'module' });
  } catch {
    return createInlineEngine();
  }
  let nextId = 1;
  const pending = new Map<number, (r: TickResult) => void>();
  worker.onmessage = (e: MessageEvent<WorkerResponse>) => {
    pending.get(e.data.id)?.(e.data.result);
    pending.delete(e.data.id);
  };
  return {
    load: (records) => worker.postMessage({ type: 'load', records } satisfies WorkerRequest),
    tick: (request) =>
      new Promise((resolve) => {
        const id = nextId++;
        pending.set(id, resolve);
        worker.postMessage({ type: 'tick', id, request } satisfies WorkerRequest);
      }),
    dispose: () => {
      worker.terminate();
      pending.clear();
    },
  };
}
