// Messages between the ingest benchmark (server side, ingest.ts) and its load process
// (ingest-load.ts, 1,000 MQTT station connections), which runs in a process of its own so that the
// stations do not share the server's event loop.
export interface LoadStation {
  user: string;
  pass: string;
  name: string;
  location: [number, number];
}

export interface LoadConfig {
  mode: 'raw' | 'ingest';
  mqttUrl: string;
  /** ingest mode: where the live events are read */
  sseUrl: string | null;
  stations: LoadStation[];
  /**
   * open loop (ingest at a target rate): receptions per second over all stations; closed loop (raw
   * pass-through, ingest capacity): most messages published and not yet delivered
   */
  rate: number;
  /** ingest mode: closed loop like the raw phase, to find the most the server sustains */
  closedLoop?: boolean;
  /**
   * ingest mode: what the server has handled comes from the parent (`progress` messages: receptions
   * stored or dropped since the load started) instead of the live events, which name a merged
   * packet once
   */
  progressFromParent?: boolean;
  /**
   * each frame is published by this many stations (uniform in the range), which the server merges
   * into one packet; `rate` counts receptions. Unset: every publish is a frame of its own.
   */
  copies?: { min: number; max: number };
  /**
   * the frames: the demo satellite's (default), or the captured live frames of the real satellites
   * (ingest-mix.ts), each with its satellite's name, NORAD id and modem settings
   */
  mix?: 'demo' | 'captured';
  /** MQTT QoS of the receptions (default 0) */
  qos?: 0 | 1;
  /**
   * closed loop on the receptions the server reports stored (ControlMessage `stored`) instead of
   * the new-packet events: with `copies` an event stands for a whole packet
   */
  loopOnStored?: boolean;
  /** first frame counter: phases of one run must not send frames an earlier phase sent (they would merge) */
  counterStart?: number;
  /**
   * raw mode: who subscribes and to what (default: the first station's login, `tinygs/+/+/tele/rx`,
   * which a broker without access control allows)
   */
  rawSubscriber?: { username: string; password: string; topic: string };
  durationMs: number;
  /** latency samples of the first moments are left out */
  warmupMs: number;
  /** longest wait for the last events after publishing stops */
  drainMs: number;
  satellite: { name: string; norad: number; freq: number };
}

export interface LoadResult {
  connectMs: number;
  sent: number;
  /** raw mode: messages the subscriber received while the load ran */
  receivedInWindow: number;
  receivedTotal: number;
  /** ingest mode: new-packet events matched to a publish */
  latencyMs: { p50: number; p90: number; p99: number; max: number; samples: number } | null;
  /** publishes skipped because the client's socket buffer was full */
  backpressureSkips: number;
}

export type LoadMessage =
  | { type: 'ready'; connectMs: number }
  | { type: 'load-start' }
  | { type: 'load-end' }
  | { type: 'result'; result: LoadResult };

export type ControlMessage =
  | { type: 'go' }
  /** messages handled so far, counted by the parent (progressFromParent) */
  | { type: 'progress'; handled: number }
  /** receptions stored since the load started (loopOnStored) */
  | { type: 'stored'; n: number };

export const BENCH_LOAD_ENV = 'TINYGS_BENCH_LOAD';
