// Catalogue import from SatNOGS DB (docs/OPERATIONS.md, "Seeding a real catalogue"): the
// documents its API answers /api/satellites/, /api/transmitters/ and optionally /api/tle/ with,
// read from files or fetched from a base URL. Satellites with a LoRa or FSK downlink in a band the
// stations receive become catalogue entries; an entry already there (same NORAD id, else same
// name) keeps what an operator edited (name, display name, descriptions, template, decoder,
// images) and gets its status and missing facts from SatNOGS. Running it again changes nothing.
import { readFile, stat } from 'node:fs/promises';
import {
  bandOfFrequency,
  ModemConfSchema,
  type ModemConf,
  type SatelliteStatus,
} from '@tinygs/contracts';
import { z } from 'zod';
import type { AppContext } from '../context';
import { applyElementSets, groupByNorad, Rejections, type UpdatedSet } from '../elements/apply';
import { readSource, SourceError } from '../elements/fetch-source';
import { DocumentFormatError, readElementDocument } from '../elements/formats';
import { listHeldSets } from '../repositories/element-sets';
import { insertSatellite, listSatelliteFacts, updateSatellite } from '../repositories/satellites';

/** SatNOGS DB's whole satellite and transmitter lists are a few MB each. */
export const MAX_SATNOGS_DOCUMENT_BYTES = 64 * 1024 * 1024;
const MAX_SATELLITES = 50_000;
const MAX_TRANSMITTERS = 200_000;
/** Two downlinks this close (MHz) are the same configuration. */
const SAME_FREQUENCY_MHZ = 0.0005;
export const SATNOGS_TLE_SOURCE = 'satnogs-db';

export class SatnogsImportError extends Error {}

const text = (max: number) => z.string().max(max);
const SatnogsSatelliteSchema = z.looseObject({
  sat_id: text(64).nullish(),
  norad_cat_id: z.number().int().positive().max(9_999_999).nullish(),
  name: text(200),
  names: text(1000).nullish(),
  image: text(1000).nullish(),
  status: text(32),
  launched: text(64).nullish(),
});
type SatnogsSatellite = z.infer<typeof SatnogsSatelliteSchema>;

const SatnogsTransmitterSchema = z.looseObject({
  uuid: text(64),
  description: text(1000).nullish(),
  downlink_low: z.number().nonnegative().nullish(),
  mode: text(64).nullish(),
  baud: z.number().nonnegative().nullish(),
  sat_id: text(64).nullish(),
  norad_cat_id: z.number().int().nullish(),
  status: text(32).nullish(),
  alive: z.boolean().nullish(),
});
type SatnogsTransmitter = z.infer<typeof SatnogsTransmitterSchema>;

/** SatNOGS satellite status -> the catalogue's: statuses an entry may keep, the first the default. */
const STATUS_MAP: Record<string, readonly SatelliteStatus[]> = {
  alive: ['Supported', 'SupportedSL', 'Surveillance', 'Experimental'],
  dead: ['Inactive'],
  're-entered': ['Inactive'],
  future: ['Future', 'Experimental'],
};

/** SatNOGS downlink modes the stations' radios demodulate. AFSK (audio on FM) is not one. */
const LORA_MODES = new Set(['LORA']);
const FSK_MODES = new Set(['FSK', 'GFSK', 'GMSK', 'MSK', '2FSK']);
/** MSK: deviation is a quarter of the baud rate (modulation index 0.5). */
const MSK_MODES = new Set(['GMSK', 'MSK']);

export interface SatnogsDocuments {
  satellites: unknown;
  transmitters: unknown;
  tle?: string;
  /** where relative image paths are found (the base URL's /media/) */
  mediaBase?: string;
}

export interface ImportReport {
  satellites: number;
  transmitters: number;
  /** SatNOGS satellites with a LoRa or FSK downlink the stations can receive */
  candidates: number;
  created: { name: string; norad: number | null; status: string; configurations: number }[];
  updated: { name: string; norad: number | null; changed: string[] }[];
  unchanged: number;
  skipped: { invalidRecords: number; unknownStatus: number; duplicates: number };
  elementSets: { updated: UpdatedSet[]; unchanged: number; rejected: number } | null;
  /** false when the run changed nothing */
  changed: boolean;
}

function records<T>(
  data: unknown,
  schema: z.ZodType<T>,
  max: number,
  what: string,
): { valid: T[]; invalid: number } {
  if (!Array.isArray(data)) throw new SatnogsImportError(`${what} is not a JSON array`);
  if (data.length > max)
    throw new SatnogsImportError(`${what} has ${data.length} entries, more than ${max}`);
  const valid: T[] = [];
  let invalid = 0;
  for (const item of data) {
    const parsed = schema.safeParse(item);
    if (parsed.success) valid.push(parsed.data);
    else invalid += 1;
  }
  return { valid, invalid };
}

/** 436703000 Hz -> 436.703 MHz (to the Hz). */
function mhz(hz: number): number {
  return Math.round(hz) / 1e6;
}

/** LoRa settings named in a transmitter's description ("SF10 BW250 CR4/5"), where they are. */
function loraSettings(description: string): { sf?: number; bw?: number; cr?: number } {
  const out: { sf?: number; bw?: number; cr?: number } = {};
  const sf = /\bSF\s?(\d{1,2})\b/i.exec(description);
  if (sf && Number(sf[1]) >= 5 && Number(sf[1]) <= 12) out.sf = Number(sf[1]);
  // kHz; SX128x radios (2.4 GHz) go up to 1625.
  const bw = /\bBW\s?(\d{1,4}(?:\.\d{1,3})?)\s?(?:kHz)?(?![\d.])/i.exec(description);
  if (bw && Number(bw[1]) >= 7.8 && Number(bw[1]) <= 1625) out.bw = Number(bw[1]);
  const cr = /\bCR\s?4\/([5-8])\b/i.exec(description);
  if (cr) out.cr = Number(cr[1]);
  return out;
}

function configurationOf(
  tx: SatnogsTransmitter,
  name: string,
  norad: number | null,
): ModemConf | null {
  const mode = (tx.mode ?? '').toUpperCase();
  if (tx.status === 'invalid' || !tx.downlink_low) return null;
  const freq = mhz(tx.downlink_low);
  if (bandOfFrequency(freq) === null) return null;
  const tail = { sat: name, ...(norad === null ? {} : { NORAD: norad }) };
  let conf: unknown = null;
  if (LORA_MODES.has(mode)) {
    conf = { mode: 'LoRa', freq, ...loraSettings(tx.description ?? ''), ...tail };
  } else if (FSK_MODES.has(mode)) {
    const baud = tx.baud && tx.baud > 0 ? tx.baud : null;
    conf = {
      mode: 'FSK',
      freq,
      ...(baud ? { br: baud / 1000 } : {}),
      ...(baud && MSK_MODES.has(mode) ? { fd: baud / 4000 } : {}),
      ...tail,
    };
  }
  const parsed = ModemConfSchema.safeParse(conf);
  return parsed.success ? parsed.data : null;
}

/** A catalogue name (what packets carry): letters, digits, - and _; SatNOGS' name otherwise. */
function catalogueName(sat: SatnogsSatellite): string {
  const cleaned = sat.name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
  return cleaned || `SatNOGS-${sat.sat_id ?? sat.norad_cat_id ?? 'unnamed'}`.slice(0, 64);
}

function imageOf(image: string | null | undefined, mediaBase: string | undefined): string | null {
  if (!image) return null;
  if (/^https:\/\/[^\s"'<>]+$/.test(image) && image.length <= 500) return image;
  if (mediaBase && /^[A-Za-z0-9/_.-]+$/.test(image) && !image.includes('..'))
    return new URL(image.replace(/^\/+/, ''), mediaBase).href;
  return null;
}

function launchOf(launched: string | null | undefined): number | null {
  const ms = launched ? Date.parse(launched) : Number.NaN;
  return Number.isFinite(ms) ? ms : null;
}

interface Planned {
  sat: SatnogsSatellite;
  configurations: ModemConf[];
}

/** SatNOGS satellites with a receivable LoRa/FSK downlink: active transmitters first, LoRa first. */
function plan(
  satellites: readonly SatnogsSatellite[],
  transmitters: readonly SatnogsTransmitter[],
): Planned[] {
  const bySat = new Map<string, SatnogsTransmitter[]>();
  const key = (satId: string | null | undefined, norad: number | null | undefined) =>
    satId ? `id:${satId}` : `norad:${norad ?? ''}`;
  for (const tx of transmitters) {
    const k = key(tx.sat_id, tx.norad_cat_id);
    bySat.set(k, [...(bySat.get(k) ?? []), tx]);
  }
  const planned: Planned[] = [];
  for (const sat of satellites) {
    const txs = bySat.get(key(sat.sat_id, sat.norad_cat_id)) ?? [];
    const name = catalogueName(sat);
    const rank = (tx: SatnogsTransmitter) =>
      (tx.status === 'active' || tx.alive === true ? 0 : 2) +
      ((tx.mode ?? '').toUpperCase() === 'LORA' ? 0 : 1);
    const configurations: ModemConf[] = [];
    for (const tx of [...txs].sort((a, b) => rank(a) - rank(b))) {
      const conf = configurationOf(tx, name, sat.norad_cat_id ?? null);
      if (conf && !configurations.some((c) => sameConfiguration(c, conf)))
        configurations.push(conf);
    }
    if (configurations.length > 0) planned.push({ sat, configurations });
  }
  return planned;
}

function sameConfiguration(a: { mode: string; freq: number }, b: { mode: string; freq: number }) {
  return a.mode === b.mode && Math.abs(a.freq - b.freq) < SAME_FREQUENCY_MHZ;
}

function parseJsonArray(text: string | null): unknown[] {
  try {
    const value: unknown = JSON.parse(text ?? '[]');
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

export async function importSatnogs(
  ctx: Pick<AppContext, 'database'>,
  documents: SatnogsDocuments,
): Promise<ImportReport> {
  const { db } = ctx.database;
  const sats = records(documents.satellites, SatnogsSatelliteSchema, MAX_SATELLITES, 'satellites');
  const txs = records(
    documents.transmitters,
    SatnogsTransmitterSchema,
    MAX_TRANSMITTERS,
    'transmitters',
  );
  const planned = plan(sats.valid, txs.valid);
  const report: ImportReport = {
    satellites: sats.valid.length + sats.invalid,
    transmitters: txs.valid.length + txs.invalid,
    candidates: planned.length,
    created: [],
    updated: [],
    unchanged: 0,
    skipped: { invalidRecords: sats.invalid + txs.invalid, unknownStatus: 0, duplicates: 0 },
    elementSets: null,
    changed: false,
  };
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    const rows = await listSatelliteFacts(trx);
    const byNorad = new Map(rows.filter((r) => r.norad !== null).map((r) => [r.norad, r]));
    const byName = new Map(rows.map((r) => [r.name.toLowerCase(), r]));
    const seen = new Set<string>();
    for (const { sat, configurations } of planned) {
      const statuses = STATUS_MAP[sat.status];
      if (!statuses) {
        report.skipped.unknownStatus += 1;
        continue;
      }
      const norad = sat.norad_cat_id ?? null;
      const wanted = catalogueName(sat);
      const byNameRow = byName.get(wanted.toLowerCase());
      const existing =
        (norad !== null ? byNorad.get(norad) : undefined) ??
        (byNameRow && (byNameRow.norad === null || byNameRow.norad === norad)
          ? byNameRow
          : undefined);
      if (existing && seen.has(existing.name)) {
        report.skipped.duplicates += 1;
        continue;
      }
      const image = imageOf(sat.image, documents.mediaBase);
      if (!existing) {
        // A name another satellite already has gets the NORAD id appended.
        const name =
          byNameRow || seen.has(wanted)
            ? `${wanted}-${norad ?? sat.sat_id ?? 'x'}`.slice(0, 64)
            : wanted;
        if (seen.has(name) || byName.has(name.toLowerCase())) {
          report.skipped.duplicates += 1;
          continue;
        }
        seen.add(name);
        const status = statuses[0] ?? 'Supported';
        const confs = configurations.map((c) => ({ ...c, sat: name }));
        const first = confs[0];
        await insertSatellite(trx, {
          name,
          displayName: sat.name.slice(0, 64),
          norad,
          status,
          description: `${first ? `${first.mode} downlink ${first.freq} MHz. ` : ''}Imported from SatNOGS DB.`,
          longDescription: '',
          launchDate: launchOf(sat.launched),
          configurations: JSON.stringify(confs),
          images: JSON.stringify(image ? [image] : []),
          webTemplate: '',
          frames: 0,
          confirmedPackets: 0,
          updatedAt: now,
        });
        report.created.push({ name, norad, status, configurations: confs.length });
        continue;
      }
      seen.add(existing.name);
      const changes: Record<string, unknown> = {};
      if (!statuses.includes(existing.status as SatelliteStatus))
        changes.status = statuses[0] ?? existing.status;
      if (existing.norad === null && norad !== null) changes.norad = norad;
      const held = parseJsonArray(existing.configurations) as { mode: string; freq: number }[];
      const added = configurations
        .filter((c) => !held.some((h) => sameConfiguration(h, c)))
        .map((c) => ({ ...c, sat: existing.name }));
      if (added.length > 0) changes.configurations = JSON.stringify([...held, ...added]);
      if (existing.launchDate === null && launchOf(sat.launched) !== null)
        changes.launchDate = launchOf(sat.launched);
      if (image && parseJsonArray(existing.images).length === 0)
        changes.images = JSON.stringify([image]);
      const changed = Object.keys(changes);
      if (changed.length === 0) {
        report.unchanged += 1;
        continue;
      }
      await updateSatellite(trx, existing.name, { ...changes, updatedAt: now });
      report.updated.push({ name: existing.name, norad: existing.norad ?? norad, changed });
    }
  });

  if (documents.tle !== undefined) {
    let document;
    try {
      document = readElementDocument(documents.tle);
    } catch (err) {
      if (err instanceof DocumentFormatError) throw new SatnogsImportError(`tle: ${err.message}`);
      throw err;
    }
    if (document.format !== 'satnogs')
      throw new SatnogsImportError('tle is not a SatNOGS DB /api/tle/ document');
    const held = groupByNorad(await listHeldSets(db));
    const rejections = new Rejections(held);
    for (const record of document.rejected)
      if (record.norad !== null && held.has(record.norad))
        rejections.add(record.norad, SATNOGS_TLE_SOURCE, record.reason);
    const found = document.sets.map((candidate) => ({ candidate, source: SATNOGS_TLE_SOURCE }));
    const applied = await applyElementSets(db, held, found, rejections, { force: false, now });
    report.elementSets = { ...applied, rejected: rejections.total };
  }
  report.changed =
    report.created.length + report.updated.length + (report.elementSets?.updated.length ?? 0) > 0;
  return report;
}

/** Reads one saved document, bounded in size. */
export async function readSatnogsFile(path: string): Promise<string> {
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch {
    throw new SatnogsImportError(`File not found: ${path}`);
  }
  if (size > MAX_SATNOGS_DOCUMENT_BYTES)
    throw new SatnogsImportError(
      `${path} has ${size} bytes, more than ${MAX_SATNOGS_DOCUMENT_BYTES}`,
    );
  return readFile(path, 'utf8');
}

export function parseSatnogsJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new SatnogsImportError(
      `${what} is not valid JSON: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

/** The three documents from a SatNOGS DB instance (base URL such as https://db.satnogs.org). */
export async function fetchSatnogs(
  base: string,
  options: { timeoutMs: number; userAgent: string },
): Promise<SatnogsDocuments> {
  const root = base.replace(/\/+$/, '');
  const get = async (path: string) => {
    try {
      const answer = await readSource(`${root}${path}`, {
        timeoutMs: options.timeoutMs,
        maxBytes: MAX_SATNOGS_DOCUMENT_BYTES,
        validators: null,
        userAgent: options.userAgent,
      });
      if (answer.status !== 'fetched') throw new SourceError('unexpected 304');
      return answer.body;
    } catch (err) {
      if (err instanceof SourceError)
        throw new SatnogsImportError(`${root}${path}: ${err.message}`);
      throw err;
    }
  };
  const [satellites, transmitters, tle] = await Promise.all([
    get('/api/satellites/?format=json'),
    get('/api/transmitters/?format=json'),
    get('/api/tle/?format=json'),
  ]);
  return {
    satellites: parseSatnogsJson(satellites, 'satellites'),
    transmitters: parseSatnogsJson(transmitters, 'transmitters'),
    tle,
    mediaBase: `${root}/media/`,
  };
}
