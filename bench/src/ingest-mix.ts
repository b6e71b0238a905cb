// The realistic mix of the ingest benchmark: the real frames of the live network captured in
// November 2022 (fixtures/live-packets-2022), sent with their satellite's name, NORAD id and modem
// settings as the live stations sent them, into a server whose catalogue holds those satellites
// (real names, formats and NORAD ids, generated orbits so every frame is placed).
//
// A frame repeated within the 60-s merge window would merge with its earlier publication, so every
// pass over the captured frames (a round) writes the round number into two bytes of each frame that
// no check of its format covers, recomputing the CRC where the format has one: every frame of every
// round is a packet of its own, decoded by its satellite's real (Kaitai) decoder with the outcome
// of the captured original. Frames whose variant would not keep that outcome are left out.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CRC16_MODELS,
  SATELLITE_FORMATS,
  decodeFrameChecked,
  type Crc16Model,
  type FormatId,
} from '@tinygs/decoders';
import { makeTleLines } from '@tinygs/orbit';
import type { Kysely } from 'kysely';
import type { Database } from '@tinygs/server/testing';

const LIVE_DIR = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'fixtures',
  'live-packets-2022',
);

interface Captured {
  raw: string;
  satellite: string;
  satDisplayName: string;
  norad: number;
  mode: string;
  freq: number;
  sf: number | null;
  bw: number | null;
  cr: number | null;
}

/** One captured frame as the load sends it. */
export interface MixFrame {
  satellite: string;
  norad: number;
  freq: number;
  sf: number;
  bw: number;
  cr: number;
  bytes: Buffer;
  vary: Variation;
}

/** Where a format's frames carry the round: two bytes (little-endian) no check covers. */
interface Variation {
  offset: number;
  /** the format's CRC over [from, length - 2), stored little-endian in the last two bytes */
  crc?: { model: Crc16Model; from: number };
}

const VARIATIONS: Partial<Record<FormatId, Variation>> = {
  // link-header transaction number, outside the beacon's CRC
  norby: { offset: 9 },
  // frame id, under the CRC-16/CCITT-FALSE of the whole frame
  fees: { offset: 3, crc: { model: 'CRC-16/CCITT-FALSE', from: 0 } },
  // GPS time (no CRC in the published part)
  fossasat_2e: { offset: 23 },
  // message index
  satlla_2b: { offset: 4 },
  // timestamp
  polytech_universe_1: { offset: 6 },
};

/** The frame as published in `round` (a fresh buffer). */
export function frameOfRound(frame: MixFrame, round: number): Buffer {
  const bytes = Buffer.from(frame.bytes);
  bytes.writeUInt16LE(round & 0xffff, frame.vary.offset);
  const crc = frame.vary.crc;
  if (crc) {
    const end = bytes.length - 2;
    bytes.writeUInt16LE(CRC16_MODELS[crc.model](bytes.subarray(crc.from, end)), end);
  }
  return bytes;
}

function captured(): Captured[] {
  return readdirSync(LIVE_DIR)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .flatMap(
      (name) =>
        (JSON.parse(readFileSync(join(LIVE_DIR, name), 'utf8')) as { packets: Captured[] }).packets,
    );
}

/**
 * The captured LoRa frames that keep their decoding outcome in every round, distinct within a
 * round, interleaved over the satellites in the captured proportions (a fixed shuffle).
 */
export function mixFrames(): MixFrame[] {
  const seen = new Set<string>();
  const frames: MixFrame[] = [];
  for (const p of captured()) {
    const format = SATELLITE_FORMATS[p.satellite];
    const vary = format ? VARIATIONS[format] : undefined;
    if (!vary || p.mode !== 'LoRa' || p.sf === null || p.bw === null || p.cr === null) continue;
    const frame: MixFrame = {
      satellite: p.satellite,
      norad: p.norad,
      freq: p.freq,
      sf: p.sf,
      bw: p.bw,
      cr: p.cr,
      bytes: Buffer.from(p.raw, 'base64'),
      vary,
    };
    const original = decodeFrameChecked(p.satellite, frame.bytes).outcome;
    if (
      [0x0001, 0xfedc].some(
        (round) => decodeFrameChecked(p.satellite, frameOfRound(frame, round)).outcome !== original,
      )
    )
      continue;
    const key = `${p.satellite}:${frameOfRound(frame, 0).toString('hex')}`;
    if (seen.has(key)) continue;
    seen.add(key);
    frames.push(frame);
  }
  // Deterministic shuffle (a linear congruential generator), so satellites interleave.
  let state = 12345;
  for (let i = frames.length - 1; i > 0; i -= 1) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const j = state % (i + 1);
    const a = frames[i];
    const b = frames[j];
    if (a && b) [frames[i], frames[j]] = [b, a];
  }
  return frames;
}

/** The satellites of the captured frames: name, display name, the NORAD id most frames carry. */
function capturedSatellites() {
  const bySat = new Map<
    string,
    { displayName: string; norads: Map<number, number>; p: Captured }
  >();
  for (const p of captured()) {
    const entry = bySat.get(p.satellite) ?? {
      displayName: p.satDisplayName,
      norads: new Map<number, number>(),
      p,
    };
    entry.norads.set(p.norad, (entry.norads.get(p.norad) ?? 0) + 1);
    bySat.set(p.satellite, entry);
  }
  return [...bySat].map(([name, e]) => ({
    name,
    displayName: e.displayName,
    norad: [...e.norads].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null,
    conf: { mode: e.p.mode, freq: e.p.freq, sf: e.p.sf, cr: e.p.cr, bw: e.p.bw },
  }));
}

/** Adds the captured frames' satellites to the catalogue (or updates them), each with an orbit of its own. */
export async function seedCapturedSatellites(db: Kysely<Database>): Promise<number> {
  const now = new Date();
  const sats = capturedSatellites();
  for (const [i, s] of sats.entries()) {
    const format = SATELLITE_FORMATS[s.name];
    await db
      .insertInto('satellites')
      .values({
        name: s.name,
        displayName: s.displayName,
        norad: s.norad,
        status: 'Supported',
        description: '',
        longDescription: '',
        launchDate: null,
        configurations: JSON.stringify([{ ...s.conf, sat: s.name, NORAD: s.norad }]),
        tle: JSON.stringify(
          makeTleLines({
            name: s.name.toUpperCase().slice(0, 24),
            noradId: s.norad ?? 90_000 + i,
            epoch: now,
            inclinationDeg: 97.5,
            raanDeg: (i * 360) / sats.length,
            eccentricity: 0.001,
            argPerigeeDeg: 0,
            meanAnomalyDeg: (i * 137) % 360,
            meanMotionRevPerDay: 15.2,
          }),
        ),
        images: '[]',
        webTemplate: '',
        decoder: format ?? null,
        frames: 0,
        confirmedPackets: 0,
        lastPacketTime: null,
        updatedAt: now.getTime(),
      })
      // The server's own catalogue may hold them already: they get the orbit only.
      .onConflict((oc) => oc.column('name').doUpdateSet((eb) => ({ tle: eb.ref('excluded.tle') })))
      .execute();
  }
  return sats.length;
}
