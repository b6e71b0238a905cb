// Packet rows -> export records, written as CSV lines or as items of one JSON array.
import type { PacketRow } from '../../db/schema';

export const CSV_COLUMNS = [
  'id',
  'serverTime',
  'satellite',
  'norad',
  'mode',
  'freq',
  'sf',
  'cr',
  'bw',
  'bitrate',
  'freqDev',
  'rxBw',
  'satLat',
  'satLng',
  'satAlt',
  'stationNumber',
  'crcError',
  'unverified',
  'raw',
  'parsed',
] as const;

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function exportRecord(p: PacketRow) {
  return {
    id: p.id,
    serverTime: p.serverTime,
    satellite: p.satellite,
    norad: p.norad,
    mode: p.mode,
    freq: p.freq,
    sf: p.sf,
    cr: p.cr,
    bw: p.bw,
    bitrate: p.bitrate,
    freqDev: p.freqDev,
    rxBw: p.rxBw,
    satLat: p.satLat,
    satLng: p.satLng,
    satAlt: p.satAlt,
    stationNumber: p.stationNumber,
    crcError: p.crcError === 1,
    unverified: p.unverified === 1,
    raw: p.raw,
    parsed: p.parsed,
  };
}

/** One CSV line of a packet. */
export function csvLine(p: PacketRow): string {
  const rec = exportRecord(p);
  return `${CSV_COLUMNS.map((c) => csvCell(rec[c])).join(',')}\n`;
}

/** A packet as one JSON array item, its stored `parsed` text as JSON. */
export function jsonItem(p: PacketRow): string {
  const rec = exportRecord(p);
  return JSON.stringify({
    ...rec,
    parsed: rec.parsed ? (JSON.parse(rec.parsed) as unknown) : null,
  });
}
