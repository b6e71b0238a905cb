// The documents element-set sources answer with, read into candidate sets [title, line 1, line 2]
// keyed by NORAD id. Three forms, told apart by their content:
// - TLE text (CelesTrak GP FORMAT=tle or 3le, any file of two- or three-line sets);
// - OMM JSON (CelesTrak GP FORMAT=json): an array of objects with OMM keywords;
// - SatNOGS DB /api/tle/: an array of {tle0, tle1, tle2, norad_cat_id, ...}.
// Nothing here checks checksums or runs SGP4: refresh.ts validates the sets it would keep.
import { ommToTleLines, parseNoradId, TleFormatError, type OmmRecord } from '@tinygs/orbit';

export type DocumentFormat = 'tle' | 'omm' | 'satnogs';

export interface CandidateSet {
  norad: number;
  lines: [string, string, string];
}

export interface RejectedRecord {
  norad: number | null;
  reason: string;
}

export interface ElementDocument {
  format: DocumentFormat;
  sets: CandidateSet[];
  rejected: RejectedRecord[];
}

/** More records than any real source holds (CelesTrak's whole catalogue is ~30,000). */
export const MAX_RECORDS = 100_000;
const MAX_FIELD_CHARS = 200;

export class DocumentFormatError extends Error {}

function noradOfLine1(line1: string): number | null {
  return line1.startsWith('1 ') ? parseNoradId(line1.slice(2, 7)) : null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.length <= MAX_FIELD_CHARS ? value : null;
}

/** Two- and three-line sets; a title line may carry the "0 " prefix of the 3LE form. */
function readTleText(body: string): ElementDocument {
  const lines = body
    .split(/\r?\n/)
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '');
  const sets: CandidateSet[] = [];
  const rejected: RejectedRecord[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line1 = lines[i] ?? '';
    const line2 = lines[i + 1] ?? '';
    if (!line1.startsWith('1 ') || !line2.startsWith('2 ')) continue;
    const previous = i > 0 ? (lines[i - 1] ?? '') : '';
    const title = previous.startsWith('2 ') || previous.startsWith('1 ') ? '' : previous;
    const norad = noradOfLine1(line1);
    if (norad === null) rejected.push({ norad: null, reason: 'no catalogue number on line 1' });
    else sets.push({ norad, lines: [title.replace(/^0 /, '').trim(), line1, line2] });
    if (sets.length + rejected.length > MAX_RECORDS)
      throw new DocumentFormatError(`more than ${MAX_RECORDS} element sets`);
    i += 1;
  }
  return { format: 'tle', sets, rejected };
}

function readSatnogs(records: readonly Record<string, unknown>[]): ElementDocument {
  const sets: CandidateSet[] = [];
  const rejected: RejectedRecord[] = [];
  for (const record of records) {
    const declared = typeof record.norad_cat_id === 'number' ? record.norad_cat_id : null;
    const [tle0, tle1, tle2] = [text(record.tle0), text(record.tle1), text(record.tle2)];
    if (tle1 === null || tle2 === null) {
      rejected.push({ norad: declared, reason: 'tle1/tle2 missing' });
      continue;
    }
    const norad = noradOfLine1(tle1);
    if (norad === null || declared === null || norad !== declared) {
      rejected.push({
        norad: declared,
        reason: `norad_cat_id ${String(declared)} does not match the set's catalogue number`,
      });
      continue;
    }
    sets.push({ norad, lines: [(tle0 ?? '').replace(/^0 /, '').trim(), tle1, tle2] });
  }
  return { format: 'satnogs', sets, rejected };
}

function readOmm(records: readonly Record<string, unknown>[]): ElementDocument {
  const sets: CandidateSet[] = [];
  const rejected: RejectedRecord[] = [];
  for (const record of records) {
    const norad = typeof record.NORAD_CAT_ID === 'number' ? record.NORAD_CAT_ID : null;
    try {
      const lines = ommToTleLines(record as OmmRecord);
      sets.push({ norad: noradOfLine1(lines[1]) ?? -1, lines });
    } catch (err) {
      if (!(err instanceof TleFormatError)) throw err;
      rejected.push({ norad, reason: err.message });
    }
  }
  return { format: 'omm', sets, rejected };
}

/** Reads a source's answer. Throws DocumentFormatError when it is none of the three forms. */
export function readElementDocument(body: string): ElementDocument {
  const start = body.trimStart()[0];
  if (start !== '[' && start !== '{') return readTleText(body);
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    throw new DocumentFormatError('not valid JSON');
  }
  const records = Array.isArray(data) ? data : [data];
  if (records.length > MAX_RECORDS)
    throw new DocumentFormatError(`more than ${MAX_RECORDS} element sets`);
  const objects = records.filter(
    (r): r is Record<string, unknown> => typeof r === 'object' && r !== null && !Array.isArray(r),
  );
  if (objects.length !== records.length)
    throw new DocumentFormatError('a JSON element-set document is an array of objects');
  const first = objects[0];
  if (first === undefined) return { format: 'omm', sets: [], rejected: [] };
  if ('tle1' in first) return readSatnogs(objects);
  if ('MEAN_MOTION' in first || 'NORAD_CAT_ID' in first) return readOmm(objects);
  throw new DocumentFormatError('JSON that is neither OMM (CelesTrak) nor SatNOGS DB /api/tle/');
}
