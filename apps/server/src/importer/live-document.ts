// Live-API packet documents (`GET /v2/packets` as the live network serves it: `{packets:[...]}`):
// decoding them with the product's own decoders, and importing them as historical packets.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { PacketSchema, TEST_FRAME_PREFIX, CRC_ERROR_MARKER } from '@tinygs/contracts';
import {
  decodeFrame,
  decodeFrameChecked,
  registerSatellite,
  isFormatId,
  type DecodedFrame,
} from '@tinygs/decoders';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database, NewPacket } from '../db/schema';
import { addSatelliteStats, insertPackets, storedPacketIds } from '../repositories/packets';
import { listSatelliteDecoders, listSatelliteNames } from '../repositories/satellites';
import { addToCounters, COUNTERS } from '../repositories/counters';
import { storeTelemetrySamples } from '../repositories/telemetry';
import { newPacketSamples } from '../telemetry/samples';
import { addSatelliteDays, satelliteDaysOf } from '../repositories/leaderboards';

export const LiveDocumentSchema = z.object({ packets: z.array(PacketSchema) });
export type LiveDocument = z.infer<typeof LiveDocumentSchema>;
type LivePacket = LiveDocument['packets'][number];

export class DocumentError extends Error {}

/** Reads and validates a document; the error names the first bad packet field. */
export function readLiveDocument(path: string): LiveDocument {
  if (!existsSync(path)) throw new DocumentError(`File not found: ${path}`);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new DocumentError(
      `${path} is not valid JSON: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const parsed = LiveDocumentSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DocumentError(
      `${path} is not a packets document: ${issue?.path.join('.')}: ${issue?.message}`,
    );
  }
  return parsed.data;
}

export function frameBytes(rawBase64: string): Buffer {
  return Buffer.from(rawBase64, 'base64');
}

export function decodeLivePacket(
  packet: Pick<LivePacket, 'satellite' | 'raw'>,
): DecodedFrame | null {
  return decodeFrame(packet.satellite, frameBytes(packet.raw));
}

/** `decode --file`: one `{id, parsed}` per packet, in document order. */
export function decodeDocument(doc: LiveDocument): { id: string; parsed: DecodedFrame | null }[] {
  return doc.packets.map((p) => ({
    id: String(p.id ?? p.packetId ?? ''),
    parsed: decodeLivePacket(p),
  }));
}

/** Satellites of the catalogue whose decoder is a known format become decodable by name. */
export async function registerCatalogueDecoders(db: Kysely<Database>): Promise<void> {
  const rows = await listSatelliteDecoders(db);
  for (const row of rows)
    if (row.decoder && isFormatId(row.decoder)) registerSatellite(row.name, row.decoder);
}

function toRow(p: LivePacket, id: string): NewPacket {
  const bytes = frameBytes(p.raw);
  // Stored like a received frame: one that fails its format's checks keeps the envelope only.
  const checked = decodeFrameChecked(p.satellite, bytes);
  const parsed = checked.parsed;
  const ascii = bytes.toString('latin1');
  const payload =
    parsed && typeof parsed.payload === 'object' && parsed.payload !== null
      ? (parsed.payload as Record<string, unknown>)
      : null;
  const txPower =
    payload?.tinygsTxPower ?? (parsed as Record<string, unknown> | null)?.tinygsTxPower;
  return {
    id,
    satellite: p.satellite,
    norad: typeof p.norad === 'number' ? p.norad : null,
    serverTime: p.serverTime,
    raw: p.raw,
    frameHash: createHash('sha256').update(p.satellite).update(bytes).digest('hex'),
    mode: p.mode ?? 'LoRa',
    freq: p.freq ?? 0,
    sf: p.sf ?? null,
    cr: p.cr ?? null,
    bw: p.bw ?? null,
    bitrate: p.bitrate ?? null,
    freqDev: p.freqDev ?? null,
    rxBw: p.rxBw ?? null,
    parsed: parsed ? JSON.stringify(parsed) : null,
    crcError: ascii === CRC_ERROR_MARKER ? 1 : 0,
    isTest: ascii.startsWith(TEST_FRAME_PREFIX) ? 1 : 0,
    satLat: p.satPos?.lat ?? null,
    satLng: p.satPos?.lng ?? null,
    satAlt: p.satPos?.alt ?? null,
    sunLit: null,
    eclipseDepth: null,
    footPrint: null,
    stationNumber: p.stationNumber ?? 0,
    txPowerMw: typeof txPower === 'number' ? txPower : null,
    historical: 1,
    unverified: checked.outcome === 'unverified' ? 1 : 0,
  };
}

export interface ImportResult {
  imported: number;
  skipped: number;
  unknownSatellites: string[];
}

/**
 * Stores the document's packets as historical packets, keeping their ids, times, satellites,
 * positions and radio parameters, and decoding the frames with our decoders. Idempotent: packets
 * whose id is already stored are skipped, so counters move only for new ones.
 */
export async function importLiveDocument(
  db: Kysely<Database>,
  doc: LiveDocument,
): Promise<ImportResult> {
  const known = new Set(await listSatelliteNames(db));
  const unknown = new Set<string>();
  const candidates = new Map<string, LivePacket>();
  for (const p of doc.packets) {
    const id = String(p.id ?? p.packetId ?? '');
    // Our ids are 24 hex digits; the live network's documents carry UUIDs. Both are kept as given.
    if (!/^[A-Za-z0-9-]{8,64}$/.test(id)) continue;
    if (!known.has(p.satellite)) {
      unknown.add(p.satellite);
      continue;
    }
    candidates.set(id, p);
  }
  await registerCatalogueDecoders(db);
  let imported = 0;
  await db.transaction().execute(async (trx) => {
    const ids = [...candidates.keys()];
    const existing = await storedPacketIds(trx, ids);
    const rows = ids
      .filter((id) => !existing.has(id))
      .map((id) => toRow(candidates.get(id) as LivePacket, id));
    for (let i = 0; i < rows.length; i += 200) {
      const chunk = rows.slice(i, i + 200);
      await insertPackets(trx, chunk);
      await storeTelemetrySamples(trx, newPacketSamples(chunk));
    }
    const perSatellite = new Map<
      string,
      { frames: number; confirmedPackets: number; lastPacketTime: number }
    >();
    for (const r of rows) {
      if (r.crcError) continue;
      const s = perSatellite.get(r.satellite) ?? {
        frames: 0,
        confirmedPackets: 0,
        lastPacketTime: 0,
      };
      s.frames += Number(r.stationNumber) || 1;
      s.confirmedPackets += 1;
      s.lastPacketTime = Math.max(s.lastPacketTime, Number(r.serverTime));
      perSatellite.set(r.satellite, s);
    }
    await addSatelliteStats(
      trx,
      [...perSatellite].map(([name, s]) => ({ name, ...s })),
    );
    await addSatelliteDays(trx, satelliteDaysOf(rows));
    const confirmed = rows.filter((r) => !r.crcError).length;
    await addToCounters(trx, { [COUNTERS.packets]: confirmed });
    imported = rows.length;
  });
  return {
    imported,
    skipped: doc.packets.length - imported,
    unknownSatellites: [...unknown].sort(),
  };
}
