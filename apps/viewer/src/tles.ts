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
