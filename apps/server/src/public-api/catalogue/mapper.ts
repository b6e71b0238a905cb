// Catalogue rows -> the wire shapes of the satellite reads (SPEC.md section 3): the live shape
// plus the element set's epoch, source and staleness, and where the satellite is now.
import { parseTle, subSatellitePoint } from '@tinygs/orbit';
import {
  isTleStale,
  type Satellite,
  type SatelliteDetail,
  type WorldmapSatellite,
} from '@tinygs/contracts';
import type { SatelliteRow } from '../../db/schema';
import { json } from '../wire';

export function tleOf(row: Pick<SatelliteRow, 'tle'>): [string, string, string] | null {
  const tle = json<unknown>(row.tle, null);
  return Array.isArray(tle) && tle.length === 3 && tle.every((l) => typeof l === 'string')
    ? (tle as [string, string, string])
    : null;
}

/** Position now, or null when the satellite has no usable TLE (missing, malformed or decayed). */
export function positionNow(row: Pick<SatelliteRow, 'tle'>, now = Date.now()) {
  const lines = tleOf(row);
  if (!lines) return null;
  try {
    return subSatellitePoint(parseTle(lines), now);
  } catch {
    return null;
  }
}

export function toSatellite(row: SatelliteRow, now = Date.now()): Satellite {
  const pos = positionNow(row, now);
  return {
    name: row.name,
    displayName: row.displayName,
    description: row.description,
    longDescription: row.longDescription,
    status: row.status as Satellite['status'],
    images: json<string[]>(row.images, []),
    configurations: json<Satellite['configurations']>(row.configurations, []),
    confirmedPackets: row.confirmedPackets,
    frames: row.frames,
    lastPacketTime: row.lastPacketTime,
    launchDate: row.launchDate,
    lat: pos ? pos.lat : null,
    lng: pos ? pos.lng : null,
    tleEpoch: row.tleEpoch,
    tleSource: row.tleSource,
    tleStale: row.tleEpoch !== null && isTleStale(row.tleEpoch, now),
  };
}

/** One satellite with its element set, last telemetry (stored as JSON text) and totals. */
export function toSatelliteDetail(row: SatelliteRow, telemetry: string | null): SatelliteDetail {
  return {
    ...toSatellite(row),
    tle: tleOf(row),
    lastTelemetry: telemetry ? (JSON.parse(telemetry) as SatelliteDetail['lastTelemetry']) : null,
    webTemplate: row.webTemplate || null,
    totals: { confirmedPackets: row.confirmedPackets, stationReceptions: row.frames },
  };
}

/** Where a satellite is now on the world map (tleMissing when it cannot be computed). */
export function toWorldmapEntry(row: SatelliteRow, now: number): WorldmapSatellite {
  const pos = positionNow(row, now);
  return pos
    ? {
        name: row.name,
        displayName: row.displayName,
        lat: pos.lat,
        lng: pos.lng,
        alt: pos.alt,
        tleMissing: false,
      }
    : { name: row.name, displayName: row.displayName, lat: null, lng: null, tleMissing: true };
}

/** An element-set file's three lines of a satellite: catalogue name, line 1, line 2. */
export function elementSetLines(row: SatelliteRow): string | null {
  const tle = tleOf(row);
  return tle ? `${row.name}\n${tle[1]}\n${tle[2]}\n` : null;
}
