// Pass predictions for the API: a station's next 24 hours of passes of the satellites in its band,
// and one satellite's over a place. Computed from the catalogue's current element sets and kept
// per station (or satellite and place) until an element set, the station's place or band changes,
// or the computed stretch no longer covers the next 24 hours. The work is CPU-bound and shares the
// process with the broker: it runs one satellite at a time, yielding in between, with at most
// COMPUTE_CONCURRENCY computations at once and COMPUTE_QUEUE waiting (then 503).
import {
  BANDS,
  PASSES_HOURS,
  bandOfFrequency,
  type Band,
  type Pass,
  type SatellitePasses,
  type StationPasses,
} from '@tinygs/contracts';
import type { Observer, Tle } from '@tinygs/orbit';
import type { AppContext } from '../context';
import { HttpError } from '../http/errors';
import { AUTO_TUNE_LOOKAHEAD_MINUTES, isAutoTuneCandidate } from '../network/auto-tune';
import { SatelliteCatalogue, type NetworkSatellite } from '../network/ingest/catalogue';
import { findStation } from '../repositories/public/station-reads';
import { markAutoTune, satellitePasses } from './predict';

const HOUR_MS = 3_600_000;
/** Computed from this long ago (a pass under way keeps its real AOS) ... */
const COMPUTE_BEFORE_MS = HOUR_MS / 2;
/** ... to this far ahead; reused while it still covers the next PASSES_HOURS. */
const COMPUTE_HOURS = PASSES_HOURS + 6;
const CACHE_ENTRIES = 2_000;
const COMPUTE_CONCURRENCY = 2;
const COMPUTE_QUEUE = 50;
/** A catalogue of our own (when no network part runs here) is reloaded at most this often. */
const CATALOGUE_REFRESH_MS = 60_000;

interface Computed {
  key: string;
  from: number;
  passes: Pass[];
}

/** Bounded map, oldest entry out first. */
class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly max: number) {}
  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) {
      const oldest = this.map.keys().next().value;
      if (oldest !== undefined) this.map.delete(oldest);
    }
  }
}

/** At most `concurrency` jobs at once and `queue` waiting; past that, 503. */
class ComputeGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(
    private readonly concurrency: number,
    private readonly queue: number,
  ) {}
  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.queue)
        throw new HttpError(503, 'Too many pass predictions at once. Please try again shortly.');
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else this.running += 1;
    try {
      return await job();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

function epochs(satellites: readonly NetworkSatellite[]): string {
  return satellites.map((s) => `${s.name}@${s.tle?.epoch.getTime() ?? 0}`).join(',');
}

function upcoming(passes: readonly Pass[], now: number): Pass[] {
  const end = now + PASSES_HOURS * HOUR_MS;
  return passes.filter((p) => p.los > now && p.aos < end);
}

export class PassPredictor {
  private readonly stations = new Lru<Computed>(CACHE_ENTRIES);
  private readonly places = new Lru<Computed>(CACHE_ENTRIES);
  private readonly gate = new ComputeGate(COMPUTE_CONCURRENCY, COMPUTE_QUEUE);
  private own: { catalogue: SatelliteCatalogue; loadedAt: number } | null = null;

  constructor(private readonly ctx: AppContext) {}

  /** The network part's live catalogue, or one of our own when it does not run here. */
  private async satellites(): Promise<NetworkSatellite[]> {
    const live = this.ctx.services.network?.catalogue;
    if (live) return live.all();
    if (!this.own) {
      this.own = {
        catalogue: new SatelliteCatalogue(this.ctx.database.db, this.ctx.log),
        loadedAt: 0,
      };
    }
    if (Date.now() - this.own.loadedAt > CATALOGUE_REFRESH_MS) {
      await this.own.catalogue.refresh();
      this.own.loadedAt = Date.now();
    }
    return this.own.catalogue.all();
  }

  /** Cached passes for `key`, or computed by `compute` from `from`. */
  private async passes(
    cache: Lru<Computed>,
    id: string,
    key: string,
    now: number,
    compute: (from: number) => Promise<Pass[]>,
  ): Promise<Pass[]> {
    const cached = cache.get(id);
    const coversUntil = (c: Computed) => c.from + COMPUTE_BEFORE_MS + COMPUTE_HOURS * HOUR_MS;
    if (cached && cached.key === key && coversUntil(cached) >= now + PASSES_HOURS * HOUR_MS)
      return upcoming(cached.passes, now);
    const from = now - COMPUTE_BEFORE_MS;
    const passes = await this.gate.run(() => compute(from));
    cache.set(id, { key, from, passes });
    return upcoming(passes, now);
  }

  async forStation(stationId: string, now = Date.now()): Promise<StationPasses | null> {
    const station = await findStation(this.ctx.database.db, stationId);
    if (!station) return null;
    const satellites = await this.satellites();
    const autoTune = (BANDS as readonly number[]).includes(station.autoTune ?? 0);
    let band: Band | null = autoTune ? (station.autoTune as Band) : null;
    if (band === null && station.satellite) {
      const tuned = satellites.find((s) => s.name === station.satellite)?.configurations[0];
      band = tuned ? bandOfFrequency(tuned.freq) : null;
    }
    const candidates = band === null ? [] : satellites.filter((s) => isAutoTuneCandidate(s, band));
    const observer: Observer = {
      latDeg: station.lat,
      lngDeg: station.lng,
      altKm: (station.elevationM ?? 0) / 1000,
    };
    const key = `${station.lat},${station.lng},${observer.altKm},${band},${autoTune}|${epochs(candidates)}`;
    const passes = await this.passes(this.stations, stationId, key, now, async (from) => {
      const all: Pass[] = [];
      for (const satellite of candidates) {
        all.push(...satellitePasses(satellite, observer, from, COMPUTE_HOURS));
        await yieldToEventLoop();
      }
      all.sort((a, b) => a.aos - b.aos);
      if (autoTune) {
        const tles = new Map<string, Tle>();
        for (const s of candidates) if (s.tle) tles.set(s.name, s.tle);
        markAutoTune(all, tles, observer, AUTO_TUNE_LOOKAHEAD_MINUTES);
      }
      return all;
    });
    return {
      stationId,
      band,
      autoTune,
      location: [station.lat, station.lng],
      from: now,
      to: now + PASSES_HOURS * HOUR_MS,
      passes,
    };
  }

  /** Null when the satellite is unknown or has no element set. */
  async forSatellite(
    name: string,
    lat: number,
    lng: number,
    now = Date.now(),
  ): Promise<SatellitePasses | null> {
    const satellite = (await this.satellites()).find((s) => s.name === name);
    if (!satellite?.tle) return null;
    // Rounded to 0.01 degrees (about a kilometre): nearby visitors share one computation.
    const place: [number, number] = [Math.round(lat * 100) / 100, Math.round(lng * 100) / 100];
    const observer: Observer = { latDeg: place[0], lngDeg: place[1], altKm: 0 };
    const passes = await this.passes(
      this.places,
      `${name}|${place[0]},${place[1]}`,
      epochs([satellite]),
      now,
      async (from) => satellitePasses(satellite, observer, from, COMPUTE_HOURS),
    );
    return {
      satellite: name,
      location: place,
      from: now,
      to: now + PASSES_HOURS * HOUR_MS,
      passes,
    };
  }
}
