// Finds one satellite in /v1/tles.txt (three lines per satellite: name, line 1, line 2).
import { parseTle, type Tle } from '@tinygs/orbit';

export function findTle(text: string, name: string): Tle | null {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const wanted = name.trim().toLowerCase();
  for (let i = 0; i + 2 < lines.length; i += 1) {
    const [title = '', l1 = '', l2 = ''] = lines.slice(i, i + 3);
    if (!l1.startsWith('1 ') || !l2.startsWith('2 ')) continue;
    if (title.replace(/^0 /, '').toLowerCase() === wanted) {
      try {
        return parseTle([title, l1, l2]);
      } catch {
        return null;
      }
    }
    i += 2;
  }
  return null;
}

function isTleLines(value: unknown): value is [string, string, string] {
  return Array.isArray(value) && value.length === 3 && value.every((l) => typeof l === 'string');
}

/**
 * The element set of `name`. The web app passes catalogue names (sat=Norbi) whose element-set
 * title may differ (NORBY), so the catalogue entry decides; a name the catalogue does not know is
 * looked up among the name lines of /v1/tles.txt (catalogue names there; element-set titles in
 * files from elsewhere). `undefined`: no such satellite; null: no TLE.
 */
export async function loadTle(name: string): Promise<Tle | null | undefined> {
  const res = await fetch(`/v1/satellite/${encodeURIComponent(name)}`);
  if (res.ok) {
    const { tle } = (await res.json()) as { tle?: unknown };
    if (!isTleLines(tle)) return null;
    try {
      return parseTle(tle);
    } catch {
      return null;
    }
  }
  if (res.status !== 404 && res.status !== 400) throw new Error(`satellite: HTTP ${res.status}`);
  const list = await fetch('/v1/tles.txt');
  if (!list.ok) throw new Error(`tles.txt: HTTP ${list.status}`);
  return findTle(await list.text(), name) ?? undefined;
}
