// The in-process event bus between ingest and its readers (live stream, read models, caches): an
// EventEmitter. With REDIS_URL, cluster/event-bridge.ts carries its events between instances
// over a Redis channel, so every instance's bus sees every instance's events.
import { EventEmitter } from 'node:events';
import type { NewPacketEvent } from '@tinygs/contracts';

export interface BusEvents {
  'new-packet': NewPacketEvent;
  /** Something about stations changed (online/offline, satellite, location). */
  'stations-changed': { stationIds: string[] };
  /**
   * Stations whose pings were stored and nothing else: their last-seen time, Wi-Fi and radio state
   * changed (nothing a map draws). Only readers that show those fields need to listen.
   */
  'stations-seen': { stationIds: string[] };
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
