// Auto-tune (PROTOCOL.md): stations whose owner chose a band are retuned to the supported
// satellite of that band that stands highest above the station now or within the next minutes,
// preferring satellites whose element sets are fresh.
import { bandOfFrequency, isTleStale, type Band, type ModemConf } from '@tinygs/contracts';
import { maxElevationWithin } from '@tinygs/orbit';
import type { AppContext } from '../context';
import type { Part, RunningPart } from '../part';
import { listAutoTuneStations, type AutoTuneStation } from '../repositories/stations';
import { NotOnlineError } from './commands';
import type { NetworkSatellite } from './ingest/catalogue';

export interface AutoTuneOptions {
  intervalMs?: number;
  /** a pass starting within this many minutes counts */
  lookaheadMinutes?: number;
}

export interface AutoTuneChoice {
  satellite: NetworkSatellite;
  configuration: ModemConf;
  maxElevationDeg: number;
}

const ELEVATION_STEP_S = 60;
/** A pass starting within this many minutes counts (the default of AutoTuneOptions). */
export const AUTO_TUNE_LOOKAHEAD_MINUTES = 15;

/** Whether auto-tune considers the satellite for a station of `band` (pass predictions use it too). */
export function isAutoTuneCandidate(satellite: NetworkSatellite, band: Band): boolean {
  const configuration = satellite.configurations[0];
  return (
    satellite.status === 'Supported' &&
    satellite.tle !== null &&
    configuration !== undefined &&
    bandOfFrequency(configuration.freq) === band
  );
}

/**
 * The best satellite for a station at `atMs`, or null when none of its band rises in the window.
 * Satellites with a fresh element set come first (a stale one may be far from where it is
 * computed), then the highest pass.
 */
export function chooseSatellite(
  station: Pick<AutoTuneStation, 'lat' | 'lng' | 'band'>,
  satellites: readonly NetworkSatellite[],
  atMs: number,
  lookaheadMinutes: number,
): AutoTuneChoice | null {
  let best: AutoTuneChoice | null = null;
  let bestFresh = false;
  const observer = { latDeg: station.lat, lngDeg: station.lng, altKm: 0 };
  for (const satellite of satellites) {
    const configuration = satellite.configurations[0];
    if (!isAutoTuneCandidate(satellite, station.band) || !satellite.tle || !configuration) continue;
    const peak = maxElevationWithin(
      satellite.tle,
      observer,
      atMs,
      lookaheadMinutes,
      ELEVATION_STEP_S,
    );
    if (!peak || peak.maxElevationDeg <= 0) continue;
    const fresh = !isTleStale(satellite.tle.epoch.getTime(), atMs);
    if (
      !best ||
      (fresh && !bestFresh) ||
      (fresh === bestFresh && peak.maxElevationDeg > best.maxElevationDeg)
    ) {
      best = { satellite, configuration, maxElevationDeg: peak.maxElevationDeg };
      bestFresh = fresh;
    }
  }
  return best;
}

async function tuneAll(ctx: AppContext, lookaheadMinutes: number): Promise<number> {
  const { commands, network } = ctx.services;
  if (!commands || !network) return 0;
  const satellites = network.catalogue.all();
  const now = Date.now();
  let retuned = 0;
  for (const station of await listAutoTuneStations(ctx.database.db)) {
    if (!commands.isOnline(station.id)) continue;
    const choice = chooseSatellite(station, satellites, now, lookaheadMinutes);
    if (!choice || choice.satellite.name === station.satellite) continue;
    const modem = {
      ...choice.configuration,
      sat: choice.satellite.name,
      NORAD: choice.satellite.norad ?? choice.configuration.NORAD,
    };
    try {
      await commands.begine(station.id, modem);
    } catch (err) {
      if (err instanceof NotOnlineError) continue;
      throw err;
    }
    network.recordSatellite(station.id, choice.satellite.name);
    retuned += 1;
  }
  return retuned;
}

export function createAutoTunePart(options: AutoTuneOptions = {}): Part {
  return {
    name: 'auto-tune',
    async start(ctx): Promise<RunningPart> {
      const log = ctx.log.child({ part: 'auto-tune' });
      let running: Promise<void> | null = null;
      const timer = setInterval(() => {
        if (running) return;
        running = tuneAll(ctx, options.lookaheadMinutes ?? AUTO_TUNE_LOOKAHEAD_MINUTES)
          .then((n) => {
            if (n > 0) log.debug({ retuned: n }, 'stations auto-tuned');
          })
          .catch((err: unknown) => log.error({ err }, 'auto-tune run failed'))
          .finally(() => {
            running = null;
          });
      }, options.intervalMs ?? 60_000);
      timer.unref();
      return {
        async stop() {
          clearInterval(timer);
          await running;
        },
      };
    },
  };
}

export const autoTunePart = createAutoTunePart();
