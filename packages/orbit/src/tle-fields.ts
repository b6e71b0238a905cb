// Alpha-5 catalogue numbers: above 99999 the first of the five columns is a letter, A = 10 .. Z = 33,
// skipping I and O (they read like 1 and 0). The largest number a TLE can carry is Z9999 = 339999.
const ALPHA5_LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
export const MAX_TLE_NORAD_ID = 339_999;

/** Reads the 5-column catalogue number field (digits or Alpha-5); null when it is not one. */
export function parseNoradId(field: string): number | null {
  const text = field.trim();
  if (/^\d{1,5}$/.test(text)) return Number(text);
  const match = /^([A-HJ-NP-Z])(\d{4})$/.exec(text);
  if (!match) return null;
  const [, letter = '', rest = ''] = match;
  return (ALPHA5_LETTERS.indexOf(letter) + 10) * 10_000 + Number(rest);
}

/** Writes a catalogue number in 5 columns, zero-padded, Alpha-5 above 99999. Throws RangeError. */
export function formatNoradId(noradId: number): string {
  if (!Number.isInteger(noradId) || noradId < 1 || noradId > MAX_TLE_NORAD_ID) {
    throw new RangeError(`noradId must be an integer in 1..${MAX_TLE_NORAD_ID}`);
  }
  if (noradId <= 99_999) return String(noradId).padStart(5, '0');
  const letter = ALPHA5_LETTERS[Math.floor(noradId / 10_000) - 10];
  return `${letter}${String(noradId % 10_000).padStart(4, '0')}`;
}
