/// <reference lib="webworker" />
// Keeps SGP4 for hundreds of satellites off the main thread so map panning never stutters.
import { Propagator } from './propagator';
import type { WorkerRequest, WorkerResponse } from './positionEngine';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const propagator = new Propagator();

scope.onmessage = (e: MessageEvent<WorkerRequest>) => {
  const msg = e.data;
  if (msg.type === 'load') {
    propagator.load(msg.records);
    return;
  }
  const result = propagator.tick(msg.request);
  const response: WorkerResponse = { id: msg.id, result };
  scope.postMessage(response, [result.coords.buffer]);
};
