/// <reference lib="webworker" />
// Keeps SGP4 for hundreds of satellites and the parsing of 10,000-station lists off the main
// thread so panning never stutters.
import { StationListReducer } from '../stationList';
import type { WorkerRequest, WorkerResponse } from './mapEngine';
import { Propagator } from './propagator';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const propagator = new Propagator();
const stations = new StationListReducer();

scope.onmessage = (e: MessageEvent<WorkerRequest>) => {
  const msg = e.data;
  if (msg.type === 'load') {
    propagator.load(msg.records);
  } else if (msg.type === 'tick') {
    const result = propagator.tick(msg.request);
    const response: WorkerResponse = { type: 'tick', id: msg.id, result };
    scope.postMessage(response, [result.coords.buffer]);
  } else if (msg.type === 'seed') {
    // The list is held at once (before any later message); only the digest takes a turn.
    void stations.seed(msg.stations).then(
      (digest) => scope.postMessage({ type: 'seed', id: msg.id, digest } satisfies WorkerResponse),
      () => scope.postMessage({ type: 'seed', id: msg.id, digest: null } satisfies WorkerResponse),
    );
  } else {
    const response: WorkerResponse = {
      type: 'stations',
      id: msg.id,
      update: stations.apply(msg.text),
    };
    scope.postMessage(response);
  }
};
