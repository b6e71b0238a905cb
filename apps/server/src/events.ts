// The in-process event bus between ingest and the live stream. One process: an EventEmitter.
// Several API instances: the same interface fed by PostgreSQL LISTEN/NOTIFY (see docs/ARCHITECTURE.md).
import { EventEmitter } from 'node:events';
import type { NewPacketEvent } from '@tinygs/contracts';

export interface BusEvents {
  'new-packet': NewPacketEvent;
  /** Something about stations changed (online/offline, satellite, location). */
  'stations-changed': { stationIds: string[] };
}

export class EventBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    // Every SSE client and service subscribes; the default warning at 10 listeners does not apply.
    this.emitter.setMaxListeners(0);
  }

  publish<K extends keyof BusEvents>(name: K, data: BusEvents[K]): void {
    this.emitter.emit(name, data);
  }

  subscribe<K extends keyof BusEvents>(name: K, fn: (data: BusEvents[K]) => void): () => void {
    this.emitter.on(name, fn);
    return () => this.emitter.off(name, fn);
  }
}
