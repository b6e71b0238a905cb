// Turns one validated `tele/rx` into a queued reception: finds the satellite, merges with other
// stations' receptions of the same frame, decodes new frames and computes the orbit facts.
// Everything here is synchronous and in memory; the batch writer stores it.
import { hash as digestOf } from 'node:crypto';
import { CRC_ERROR_MARKER, TEST_FRAME_PREFIX, type RxPayload } from '@tinygs/contracts';
import { decodeFrame } from '@tinygs/decoders';
import { newPacketId } from './packet-id';
import type { DropReason, NetworkMetrics } from '../metrics';
import type { BatchWriter } from './batch-writer';
import type { SatelliteCatalogue } from './catalogue';
import type { MergeIndex } from './merge-index';
import { gpsFromParsed, packetOrbitFacts, receptionGeometry } from './orbit-facts';

/** A station clock further off than this is not trusted for the orbit computations. */
const MAX_CLOCK_SKEW_MS = 10 * 60 * 1000;

const CRC_MARKER_BYTES = Buffer.from(CRC_ERROR_MARKER, 'latin1');
const TEST_PREFIX_BYTES = Buffer.from(TEST_FRAME_PREFIX, 'latin1');

function startsWith(bytes: Buffer, prefix: Buffer): boolean {
  return bytes.length >= prefix.length && bytes.subarray(0, prefix.length).equals(prefix);
}

function txPowerMwOf(parsed: Record<string, unknown> | null): number | null {
  const payload = parsed?.payload;
  if (typeof payload !== 'object' || payload === null) return null;
  const value = (payload as Record<string, unknown>).tinygsTxPower;
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export interface RxStation {
  id: string;
  userId: string;
}

export class RxIngest {
  constructor(
    private readonly catalogue: SatelliteCatalogue,
    private readonly merge: MergeIndex,
    private readonly writer: BatchWriter,
    private readonly metrics: NetworkMetrics,
    private readonly now: () => number = Date.now,
  ) {}

  /** Null when the reception was queued, otherwise why it was dropped. */
  accept(station: RxStation, rx: RxPayload): DropReason | null {
    // Before any decoding: a station over its share of the queue costs nothing more.
    const room = this.writer.roomFor(station.id, station.userId);
    if (room) return room;
    const sat = this.catalogue.find(rx.satellite, rx.NORAD);
    if (!sat) {
      this.catalogue.refreshAfterMiss();
      return 'unknown-satellite';
    }
    const now = this.now();
    const stationMs = rx.usec_time / 1000;
    const at = Math.abs(stationMs - now) <= MAX_CLOCK_SKEW_MS ? stationMs : now;
    const bytes = Buffer.from(rx.data, 'base64');
    const crcError = rx.crc_error || startsWith(bytes, CRC_MARKER_BYTES);
    const location: [number, number] = [rx.station_location[0], rx.station_location[1]];
    const hash = digestOf('sha256', Buffer.concat([sat.nameBytes, bytes]), 'hex');

    // CRC-error reports all carry the same marker bytes: they never merge.
    const joined = crcError ? undefined : this.merge.find(hash, now);
    if (joined?.stations.includes(station.id)) return 'duplicate-reception';

    let packetId: string;
    let newPacket = null;
    let satPos = joined?.satPos ?? null;
    let decoded = joined?.decoded ?? false;
    if (joined) {
      packetId = joined.packetId;
    } else {
      packetId = newPacketId(now);
      const parsed = crcError ? null : decodeFrame(sat.name, bytes);
      decoded = parsed !== null;
      const facts = packetOrbitFacts(sat.tle, at, sat.tle ? null : gpsFromParsed(parsed));
      satPos = facts.satPos;
      const lora = rx.mode === 'LoRa' ? rx : null;
      const fsk = rx.mode === 'FSK' ? rx : null;
      newPacket = {
        id: packetId,
        satellite: sat.name,
        norad: sat.norad ?? rx.NORAD,
        serverTime: now,
        raw: rx.data,
        frameHash: hash,
        mode: rx.mode,
        freq: rx.frequency,
        sf: lora?.sf ?? null,
        cr: lora?.cr ?? null,
        bw: lora?.bw ?? null,
        bitrate: fsk?.bitrate ?? null,
        freqDev: fsk?.freqdev ?? null,
        rxBw: fsk?.rxBw ?? null,
        parsed: parsed ? JSON.stringify(parsed) : null,
        crcError: crcError ? 1 : 0,
        isTest: startsWith(bytes, TEST_PREFIX_BYTES) ? 1 : 0,
        satLat: facts.satPos?.lat ?? null,
        satLng: facts.satPos?.lng ?? null,
        satAlt: facts.satPos?.alt ?? null,
        sunLit: facts.sunLit === null ? null : facts.sunLit ? 1 : 0,
        eclipseDepth: facts.eclipseDepth,
        footPrint: facts.footPrint,
        stationNumber: 0,
        txPowerMw: txPowerMwOf(parsed),
        historical: 0,
      };
    }

    const geometry = receptionGeometry(sat.tle, at, location, rx.frequency, satPos);
    const refused = this.writer.enqueue({
      kind: 'reception',
      write: {
        packetId,
        newPacket,
        satelliteName: sat.name,
        satDisplayName: sat.displayName,
        satPos,
        crcError,
        decoded,
        reception: {
          packetId,
          stationId: station.id,
          userId: station.userId,
          serverTime: now,
          lat: location[0],
          lng: location[1],
          distance: geometry.distance,
          elevation: geometry.elevation,
          azimuth: geometry.azimuth,
          usecTime: Math.round(rx.usec_time),
          doppler: geometry.doppler,
          fDoppler: rx.f_doppler ?? null,
          frequencyOffset: rx.frequency_offset,
          crcError: crcError ? 1 : 0,
          rssi: rx.rssi,
          snr: rx.snr,
          frequencyError: rx.frequency_error,
        },
      },
    });
    if (refused) return refused;
    if (joined) {
      joined.stations.push(station.id);
      this.metrics.mergeHits += 1;
    } else if (!crcError)
      this.merge.add(hash, { packetId, firstAt: now, stations: [station.id], decoded, satPos });
    return null;
  }
}
