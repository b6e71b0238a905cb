// Turns one validated `tele/rx` into a queued reception: finds the satellite, merges with other
// stations' receptions of the same frame, decodes new frames and computes the orbit facts.
// Everything here is synchronous and in memory, except the claim on a frame that instances share
// (shared-merge.ts), asked only when this instance has not seen the frame; the batch writer
// stores it.
import { hash as digestOf } from 'node:crypto';
import { CRC_ERROR_MARKER, TEST_FRAME_PREFIX, type RxPayload } from '@tinygs/contracts';
import type { NewPacket } from '../../db/schema';
import { decodeFrameChecked } from '@tinygs/decoders';
import { newPacketId } from './packet-id';
import type { DropReason, NetworkMetrics } from '../metrics';
import type { BatchWriter } from './batch-writer';
import type { NetworkSatellite, SatelliteCatalogue } from './catalogue';
import type { FrameMerge, MergeClaim, MergeEntry } from './merge-index';
import { gpsFromParsed, packetOrbitFacts, receptionGeometry } from './orbit-facts';

/** A station clock further off than this is not trusted for the orbit computations. */
export const MAX_CLOCK_SKEW_MS = 10 * 60 * 1000;

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

/** One reception as it arrived, before it is merged. */
interface Arrival {
  station: RxStation;
  /** its ingest journal entry (cluster/ingest-journal.ts) */
  receipt: string | undefined;
  rx: RxPayload;
  sat: NetworkSatellite;
  bytes: Buffer;
  crcError: boolean;
  location: [number, number];
  hash: string;
  /** server time of arrival */
  now: number;
  /** the time its orbit facts are computed for */
  at: number;
}

/** The packet a reception creates: its id and the times its row is computed for. */
type PacketPlan = Omit<MergeClaim, 'won'>;

export class RxIngest {
  /** claims on the way to the shared index, so later copies here wait for the first */
  private readonly claims = new Map<string, Promise<MergeClaim | null>>();

  constructor(
    private readonly catalogue: SatelliteCatalogue,
    private readonly merge: FrameMerge,
    private readonly writer: BatchWriter,
    private readonly metrics: NetworkMetrics,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Null when the reception was queued, otherwise why it was dropped. A promise of that when the
   * frame is claimed in the index shared with other instances.
   */
  accept(
    station: RxStation,
    rx: RxPayload,
    receipt?: string,
  ): DropReason | null | Promise<DropReason | null> {
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
    const arrival: Arrival = {
      station,
      receipt,
      rx,
      sat,
      bytes,
      crcError,
      location,
      hash,
      now,
      at,
    };

    // CRC-error reports all carry the same marker bytes: they never merge.
    if (crcError) return this.create(arrival, { packetId: newPacketId(now), firstAt: now, at });
    const joined = this.merge.find(hash, now);
    if (joined) return this.join(arrival, joined);
    if (!this.merge.shared)
      return this.create(arrival, { packetId: newPacketId(now), firstAt: now, at });
    return this.acceptClaimed(arrival);
  }

  private async acceptClaimed(arrival: Arrival): Promise<DropReason | null> {
    const { hash, now, at } = arrival;
    let pending = this.claims.get(hash);
    if (!pending) {
      const claim = this.merge.claim(hash, { packetId: newPacketId(now), firstAt: now, at });
      pending = claim;
      this.claims.set(hash, claim);
      void claim.finally(() => {
        if (this.claims.get(hash) === claim) this.claims.delete(hash);
      });
    }
    const claim = await pending;
    // An earlier copy that waited for the same claim may be queued by now: join it here.
    const joined = this.merge.find(hash, now);
    if (joined) return this.join(arrival, joined);
    // Shared claims unavailable: a packet of this instance's own.
    if (!claim) return this.create(arrival, { packetId: newPacketId(now), firstAt: now, at });
    return this.create(arrival, claim, !claim.won);
  }

  private join(arrival: Arrival, joined: MergeEntry): DropReason | null {
    const { station } = arrival;
    if (joined.stations.includes(station.id)) return 'duplicate-reception';
    const refused = this.enqueue(arrival, joined.packetId, null, joined.satPos, joined.decoded);
    if (refused) return refused;
    joined.stations.push(station.id);
    this.metrics.mergeHits += 1;
    return null;
  }

  /**
   * Queues the reception with the packet row it creates (or, joining a packet another instance
   * claimed, creates if that one is not stored yet). The row is computed from the plan only, so
   * every instance computes the same row for one claim.
   */
  private create(arrival: Arrival, plan: PacketPlan, claimedElsewhere = false): DropReason | null {
    const { station, sat, rx, bytes, crcError, hash } = arrival;
    // A frame that fails its format's checks keeps only the envelope: nothing decoded from it is
    // trusted (no GPS position, not a confirmed packet for its stations).
    const checked = crcError ? null : decodeFrameChecked(sat.name, bytes);
    const parsed = checked?.parsed ?? null;
    const decoded = checked?.outcome === 'decoded';
    const gps = sat.tle || !decoded ? null : gpsFromParsed(parsed);
    const facts = packetOrbitFacts(sat.tle, plan.at, gps);
    const satPos = facts.satPos;
    const lora = rx.mode === 'LoRa' ? rx : null;
    const fsk = rx.mode === 'FSK' ? rx : null;
    const newPacket: NewPacket = {
      id: plan.packetId,
      satellite: sat.name,
      norad: sat.norad ?? rx.NORAD,
      serverTime: plan.firstAt,
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
      unverified: checked?.outcome === 'unverified' ? 1 : 0,
    };
    const refused = this.enqueue(arrival, plan.packetId, newPacket, satPos, decoded);
    if (refused) return refused;
    if (claimedElsewhere) this.metrics.mergeHits += 1;
    else if (checked?.outcome === 'unverified')
      this.metrics.countUnverified(sat.name, checked.failed);
    if (!crcError) {
      this.merge.add(hash, {
        packetId: plan.packetId,
        firstAt: plan.firstAt,
        stations: [station.id],
        decoded,
        satPos,
      });
    }
    return null;
  }

  private enqueue(
    arrival: Arrival,
    packetId: string,
    newPacket: NewPacket | null,
    satPos: MergeEntry['satPos'],
    decoded: boolean,
  ): DropReason | null {
    const { station, receipt, rx, sat, crcError, location, now, at } = arrival;
    const geometry = receptionGeometry(sat.tle, at, location, rx.frequency, satPos);
    // Every write and row has the same fields in the same order (no spreads): thousands a second
    // wait in the queue, and objects of one shape are smaller and faster to read.
    return this.writer.enqueue({
      kind: 'reception',
      write: {
        packetId,
        newPacket,
        satelliteName: sat.name,
        satDisplayName: sat.displayName,
        satPos,
        crcError,
        decoded,
        receipt,
        // SatNOGS DB takes what the satellite sent: no CRC errors, no stations' test frames.
        forwardToSatnogs:
          sat.forwardToSatnogs && !crcError && !startsWith(arrival.bytes, TEST_PREFIX_BYTES)
            ? true
            : undefined,
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
  }
}
