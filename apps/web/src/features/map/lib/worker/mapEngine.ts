// Main-thread handle on the map worker (SGP4 positions, station-list diffs). Falls back to the
// same code in-thread where module workers are unavailable (tests, very old browsers).
import type { StationListItem } from '@tinygs/contracts';
import type { StationListUpdate } from '../stationList';
import type { TickRequest, TickResult } from './propagator';
import type { TleRecord } from '../tleText';

export type WorkerRequest =
  | { type: 'load'; records: (TleRecord | null)[] }
  | { type: 'tick'; id: number; request: TickRequest }
  | { type: 'stations'; id: number; text: string }
  | { type: 'seed'; id: number; stations: StationListItem[] };

export type WorkerResponse =
  | { type: 'tick'; id: number; result: TickResult }
  | { type: 'stations'; id: number; update: StationListUpdate }
  | { type: 'seed'; id: number; digest: string | null };

type AskRequest =
  Extract<WorkerRequest, { id: number }> extends infer R
    ? R extends unknown
      ? Omit<R, 'id'>
      : never
    : never;

export interface MapEngine {
  load(records: (TleRecord | null)[]): void;
  tick(request: TickRequest): Promise<TickResult>;
  /** the raw `data` of a `stations-delta` event */
  stations(text: string): Promise<StationListUpdate>;
  /**
   * holds the list the map was drawn from; its digest names it for the stream (`known`), null
   * where the page cannot compute it
   */
  seed(stations: StationListItem[]): Promise<string | null>;
  dispose(): void;
}

/** Loaded on demand so the normal (worker) path keeps SGP4 and zod out of the page's own chunks. */
export function createInlineEngine(): MapEngine {
  const parts = Promise.all([import('./propagator'), import('../stationList')]).then(
    ([{ Propagator }, { StationListReducer }]) => ({
      propagator: new Propagator(),
      stations: new StationListReducer(),
    }),
  );
  return {
    load: (records) => void parts.then((p) => p.propagator.load(records)),
    tick: (request) => parts.then((p) => p.propagator.tick(request)),
    stations: (text) => parts.then((p) => p.stations.apply(text)),
    seed: (stations) => parts.then((p) => p.stations.seed(stations)),
    dispose: () => undefined,
  };
}

export function createMapEngine(): MapEngine {
  if (typeof Worker === 'undefined') return createInlineEngine();
  let worker: Worker;
  try {
    worker = new Worker(new URL('./map.worker.ts', import.meta.url), { type: 'module' });
  } catch {
    return createInlineEngine();
  }
  let nextId = 1;
  const pending = new Map<number, (r: WorkerResponse) => void>();
  worker.onmessage = (e: MessageEvent<WorkerResponse>) => {
    pending.get(e.data.id)?.(e.data);
    pending.delete(e.data.id);
  };
  const ask = (request: AskRequest): Promise<WorkerResponse> =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      worker.postMessage({ ...request, id } as WorkerRequest);
    });
  return {
    load: (records) => worker.postMessage({ type: 'load', records } satisfies WorkerRequest),
    tick: (request) =>
      ask({ type: 'tick', request }).then((r) => (r.type === 'tick' ? r.result : Promise.reject())),
    stations: (text) =>
      ask({ type: 'stations', text }).then((r) => (r.type === 'stations' ? r.update : null)),
    seed: (stations) =>
      ask({ type: 'seed', stations }).then((r) =>
        r.type === 'seed' ? r.digest : Promise.reject(new Error('no digest')),
      ),
    dispose: () => {
      worker.terminate();
      pending.clear();
    },
  };
}
