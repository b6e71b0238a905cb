// /v1/tles.txt holds three lines per satellite: name, line 1, line 2. Real files also carry
// CRLF endings, trailing blanks and the occasional "0 " name prefix of the classic 3LE format.

export interface TleRecord {
  name: string;
  line1: string;
  line2: string;
}

/** Every complete name/line 1/line 2 triple of the file; broken records are skipped, not guessed. */
export function parseTleText(text: string): TleRecord[] {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '');
  const out: TleRecord[] = [];
  for (let i = 0; i + 2 < lines.length;) {
    const name = lines[i] ?? '';
    const line1 = lines[i + 1] ?? '';
    const line2 = lines[i + 2] ?? '';
    if (!name.startsWith('1 ') && line1.startsWith('1 ') && line2.startsWith('2 ')) {
      out.push({ name: name.replace(/^0 /, '').trim(), line1: line1.trim(), line2: line2.trim() });
      i += 3;
    } else {
      // Resynchronise on the next line that can start a record.
      i += 1;
    }
  }
  return out;
}

/**
 * The TLE of each map satellite, in the map's order. The file's name line is matched against the
 * satellite's name, then its display name (case-insensitive); null where neither appears.
 */
export function tleRecordsFor(
  satellites: readonly { name: string; displayName: string }[],
  records: readonly TleRecord[],
): (TleRecord | null)[] {
  const byName = new Map<string, TleRecord>();
  for (const r of records) byName.set(r.name.toLowerCase(), r);
  return satellites.map(
    (s) => byName.get(s.name.toLowerCase()) ?? byName.get(s.displayName.toLowerCase()) ?? null,
  );
}
