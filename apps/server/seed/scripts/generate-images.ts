// Draws the small SVG picture of every seed satellite (its first `images` entry): a spacecraft or a
// balloon on a night-sky card with the display name. Colours and shape come from a generator seeded
// with the satellite's name, so reruns give identical files. Each file stays well under 3 KB.
// Run: npx tsx apps/server/seed/scripts/generate-images.ts
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  IMAGES_DIR,
  hashText,
  readCatalogue,
  seededRandom,
  type CatalogueEntry,
} from './catalogue-files';

const BALLOON_STATUSES = new Set(['Balloon', 'BInactive', 'BFuture']);
const WIDTH = 320;
const HEIGHT = 200;

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

function stars(random: () => number): string {
  let out = '';
  for (let i = 0; i < 14; i++) {
    const x = round(8 + random() * (WIDTH - 16));
    const y = round(8 + random() * 150);
    const r = round(0.6 + random() * 0.9);
    out += `<circle cx="${x}" cy="${y}" r="${r}"/>`;
  }
  return `<g fill="#fff" opacity=".55">${out}</g>`;
}

/** A solar wing of `cells` panels, drawn to the right of x0 (mirrored with a negative width). */
function wing(x0: number, width: number, cells: number, fill: string, line: string): string {
  const x = Math.min(x0, x0 + width);
  const w = Math.abs(width);
  let grid = '';
  for (let i = 1; i < cells; i++) {
    const gx = round(x + (w * i) / cells);
    grid += `<path d="M${gx} -15V15"/>`;
  }
  return (
    `<rect x="${x}" y="-15" width="${w}" height="30" rx="2" fill="${fill}" stroke="${line}"/>` +
    `<g stroke="${line}" stroke-width=".8">${grid}</g>`
  );
}

function spacecraft(random: () => number, hue: number): string {
  const panelHue = 210 + Math.round(random() * 40);
  const panel = `hsl(${panelHue} 55% 28%)`;
  const panelLine = `hsl(${panelHue} 60% 62%)`;
  const body = `hsl(${hue} 25% 78%)`;
  const accent = `hsl(${(hue + 180) % 360} 70% 60%)`;
  const shape = Math.floor(random() * 3);
  const tilt = Math.round(random() * 24 - 12);
  // 0: 1U-3U CubeSat, 1: PocketQube with whip antennas, 2: 6U with double wings.
  const half = shape === 1 ? 13 : shape === 2 ? 26 : 19;
  const span = shape === 2 ? 84 : shape === 1 ? 52 : 70;
  const cells = shape === 2 ? 4 : 3;
  const parts = [
    `<path d="M${-half} 0H${-half - 8}M${half} 0H${half + 8}" stroke="${panelLine}" stroke-width="2"/>`,
    wing(-half - 8, -span, cells, panel, panelLine),
    wing(half + 8, span, cells, panel, panelLine),
    `<rect x="${-half}" y="${-half}" width="${2 * half}" height="${2 * half}" rx="3" fill="${body}" stroke="#fff" stroke-opacity=".5"/>`,
    `<circle r="${round(half / 2.6)}" fill="${accent}"/>`,
  ];
  if (shape === 1) {
    parts.push(
      `<path d="M-6 ${-half}l-10 -26M6 ${-half}l10 -26M-6 ${half}l-10 26M6 ${half}l10 26" stroke="#ddd" stroke-width="1.4"/>`,
    );
  } else {
    parts.push(`<path d="M0 ${-half}V${-half - 24}" stroke="#ddd" stroke-width="1.6"/>`);
    parts.push(`<circle cy="${-half - 26}" r="3" fill="${accent}"/>`);
  }
  return `<g transform="translate(160 86) rotate(${tilt})">${parts.join('')}</g>`;
}

function balloon(random: () => number, hue: number): string {
  const envelope = `hsl(${hue} 70% 62%)`;
  const shade = `hsl(${hue} 60% 42%)`;
  const sway = Math.round(random() * 10 - 5);
  return (
    `<g transform="translate(160 70) rotate(${sway})">` +
    `<ellipse rx="38" ry="44" fill="${envelope}"/>` +
    `<path d="M-12 -42Q-26 0 -10 42M12 -42Q26 0 10 42" fill="none" stroke="${shade}" stroke-width="2"/>` +
    `<path d="M-8 43L-6 78M8 43L6 78" stroke="#ddd" stroke-width="1.2"/>` +
    `<rect x="-10" y="78" width="20" height="14" rx="2" fill="#e8e8e8" stroke="${shade}"/>` +
    `<path d="M0 92V104" stroke="#ddd" stroke-width="1.4"/></g>`
  );
}

function picture(entry: CatalogueEntry): string {
  const random = seededRandom(hashText(entry.name));
  const hue = Math.floor(random() * 360);
  const label = escapeXml(entry.displayName);
  const drawing = BALLOON_STATUSES.has(entry.status)
    ? balloon(random, hue)
    : spacecraft(random, hue);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="${label}">` +
    `<title>${label}</title>` +
    `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">` +
    `<stop offset="0" stop-color="hsl(${hue} 45% 18%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360} 50% 7%)"/>` +
    `</linearGradient></defs>` +
    `<rect width="${WIDTH}" height="${HEIGHT}" rx="14" fill="url(#sky)"/>` +
    stars(random) +
    drawing +
    `<text x="160" y="184" text-anchor="middle" font-family="system-ui,sans-serif" font-size="17" font-weight="600" fill="#fff">${label}</text>` +
    `</svg>\n`
  );
}

let written = 0;
for (const { entry } of readCatalogue()) {
  const [file] = entry.images;
  if (!file) continue;
  writeFileSync(join(IMAGES_DIR, file), picture(entry));
  written++;
}
console.log(`wrote ${written} images`);
