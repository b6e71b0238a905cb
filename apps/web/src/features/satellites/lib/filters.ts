// Satellite list filtering (SPEC.md section 9, "Satellite tables and filters").
import {
  bandOfFrequency,
  SATELLITE_LIST_FILTERS,
  SATELLITE_TABLE_MAX_AGE_DAYS,
  SATELLITE_TABLE_MIN_FRAMES,
  type Band,
  type ModemMode,
  type Satellite,
  type SatelliteListKey,
  type SatelliteStatus,
} from '@tinygs/contracts';

export interface SatelliteFilterState {
  statuses: SatelliteStatus[];
  /** null = any band */
  band: Band | null;
  /** null = any mode */
  mode: ModemMode | null;
}

export function defaultFilter(list: SatelliteListKey): SatelliteFilterState {
  const preset: { statuses: readonly SatelliteStatus[]; band?: Band; mode?: ModemMode } =
    SATELLITE_LIST_FILTERS[list];
  return { statuses: [...preset.statuses], band: preset.band ?? null, mode: preset.mode ?? null };
}

/**
 * Band and mode must hold for the same configuration: an FSK 433 filter keeps a satellite with an
 * FSK downlink at 433 MHz, not one with LoRa at 433 and FSK at 2.4 GHz.
 */
export function matchesFilter(satellite: Satellite, filter: SatelliteFilterState): boolean {
  if (filter.statuses.length > 0 && !filter.statuses.includes(satellite.status)) return false;
  if (filter.band === null && filter.mode === null) return true;
  return satellite.configurations.some(
    (conf) =>
      (filter.band === null || bandOfFrequency(conf.freq) === filter.band) &&
      (filter.mode === null || conf.mode === filter.mode),
  );
}

export function applyFilter(
  satellites: readonly Satellite[],
  filter: SatelliteFilterState,
): Satellite[] {
  return satellites.filter((s) => matchesFilter(s, filter));
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Starlink and Surveillance tables list only satellites heard often and recently. */
export function isTableEligible(satellite: Satellite, nowMs: number): boolean {
  return (
    satellite.frames >= SATELLITE_TABLE_MIN_FRAMES &&
    satellite.lastPacketTime !== null &&
    nowMs - satellite.lastPacketTime <= SATELLITE_TABLE_MAX_AGE_DAYS * DAY_MS
  );
}

/** Configuration chips: `mode@freq`, without duplicates. */
export function configurationLabels(satellite: Satellite): string[] {
  return [...new Set(satellite.configurations.map((c) => `${c.mode}@${c.freq}`))];
}
