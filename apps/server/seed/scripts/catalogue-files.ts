// Shared by the seed generator scripts: where the catalogue lives and how its files are written.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';

export const SEED_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SATELLITES_DIR = join(SEED_DIR, 'satellites');
export const IMAGES_DIR = join(SEED_DIR, 'images');

/** The fields the generator scripts read; the files hold more (see the seed README). */
export interface CatalogueEntry {
  name: string;
  displayName: string;
  norad: number | null;
  status: string;
  launchDate: string | null;
  tle: [string, string, string] | null;
  images: string[];
  [field: string]: unknown;
}

export interface CatalogueFile {
  path: string;
  entry: CatalogueEntry;
}

/** Every satellite file, sorted by file name so that generated output does not depend on the OS. */
export function readCatalogue(): CatalogueFile[] {
  return readdirSync(SATELLITES_DIR)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => {
      const path = join(SATELLITES_DIR, file);
      return { path, entry: JSON.parse(readFileSync(path, 'utf8')) as CatalogueEntry };
    });
}

/** Writes a satellite file formatted as `npx prettier --write` would, so reruns leave no diff. */
export async function writeCatalogueEntry(file: CatalogueFile): Promise<void> {
  const options = (await resolveConfig(file.path)) ?? {};
  const text = await format(JSON.stringify(file.entry, null, 2), { ...options, parser: 'json' });
  writeFileSync(file.path, text);
}

/** FNV-1a hash of a text: a stable per-satellite seed, unaffected by adding other satellites. */
export function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** mulberry32: a small seeded generator of numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
