// Loads the satellite catalogue (apps/server/seed/satellites/*.json, templates and images beside
// them) into storage; with DEMO=0 only its real satellites. Data, not code: adding a satellite is
// adding a file. Also used by the CLI's `satellites import FILE`.
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { SatelliteStatusSchema } from '@tinygs/contracts';
import { z } from 'zod';
import { REPO_ROOT } from '../config';
import type { Db } from '../db/connect';
import { heldElementSetEpochs, upsertSatelliteEntry } from '../repositories/satellites';

export const SEED_DIR = join(REPO_ROOT, 'apps/server/seed');

export const CatalogueEntrySchema = z.object({
  name: z.string().min(1).max(64),
  /** made up for the demo: left out with DEMO=0 */
  invented: z.boolean().default(false),
  displayName: z.string().min(1).max(64),
  norad: z.number().int().positive().nullable(),
  status: SatelliteStatusSchema,
  description: z.string().max(1000).default(''),
  longDescription: z.string().max(20_000).default(''),
  launchDate: z.string().nullable().default(null),
  configurations: z.array(z.looseObject({ mode: z.enum(['LoRa', 'FSK']), freq: z.number() })),
  tle: z.tuple([z.string(), z.string(), z.string()]).nullable().default(null),
  images: z.array(z.string()).default([]),
  decoder: z.string().nullable().default(null),
  /** a file name, relative to the catalogue's templates folder (readTemplateWithin) */
  webTemplate: z.string().min(1).max(255).nullable().default(null),
  /** forward its CRC-passing frames to SatNOGS DB (docs/OPERATIONS.md); absent: left as stored */
  satnogsForward: z.boolean().optional(),
});
export type CatalogueEntry = z.infer<typeof CatalogueEntrySchema>;

/** A template an entry names that lies outside the folders templates may be read from. */
export class TemplateOutsideError extends Error {
  constructor(name: string) {
    super(
      `Template ${name} is outside the catalogue: templates are read only from inside the imported folder or the seed`,
    );
  }
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/**
 * The text of the template `name` from the first of `roots` that holds it, or null when none does.
 * A catalogue file is data from outside (an operator imports it), so the name may only lead to a
 * file inside a root: an absolute name, one that climbs out with `..`, or a symbolic link that
 * resolves outside is refused with TemplateOutsideError and nothing is read.
 */
export function readTemplateWithin(roots: string[], name: string): string | null {
  for (const root of roots) {
    const candidate = resolve(root, name);
    if (!isInside(resolve(root), candidate)) throw new TemplateOutsideError(name);
    if (!existsSync(candidate)) continue;
    if (!isInside(realpathSync(root), realpathSync(candidate)))
      throw new TemplateOutsideError(name);
    return readFileSync(candidate, 'utf8');
  }
  return null;
}

export function readCatalogue(dir = SEED_DIR): { entry: CatalogueEntry; template: string }[] {
  const satDir = join(dir, 'satellites');
  return readdirSync(satDir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const entry = CatalogueEntrySchema.parse(
        JSON.parse(readFileSync(join(satDir, file), 'utf8')),
      );
      const name = entry.webTemplate;
      const template = name ? readTemplateWithin([join(dir, 'templates')], name) : '';
      if (template === null)
        throw new Error(`${file}: template ${name} not found in ${dir}/templates`);
      return { entry, template };
    });
}

function epochOf(
  tle: CatalogueEntry['tle'],
  parseTle: (lines: [string, string, string]) => { epoch: Date },
): number | null {
  if (!tle) return null;
  try {
    return parseTle(tle).epoch.getTime();
  } catch {
    return null;
  }
}

/**
 * Inserts or updates satellites by name; counters (frames, packets) of existing rows are kept, and
 * so is an element set newer than the entry's (a refresh brought it). `source` names where the
 * entry's set came from (`tleSource`).
 */
export async function upsertSatellites(
  database: Db,
  items: { entry: CatalogueEntry; template: string }[],
  source = 'seed',
): Promise<number> {
  const now = Date.now();
  // Loaded here rather than at the top: the CLI imports this module for commands without SGP4.
  const { parseTle } = await import('@tinygs/orbit');
  await database.db.transaction().execute(async (trx) => {
    const names = items.map((i) => i.entry.name);
    const held = await heldElementSetEpochs(trx, names);
    for (const { entry, template } of items) {
      const tleEpoch = epochOf(entry.tle, parseTle);
      const heldEpoch = held.get(entry.name) ?? null;
      const keepHeldSet = heldEpoch !== null && (tleEpoch === null || heldEpoch > tleEpoch);
      const row = {
        displayName: entry.displayName,
        norad: entry.norad,
        status: entry.status,
        description: entry.description,
        longDescription: entry.longDescription,
        launchDate: entry.launchDate ? Date.parse(entry.launchDate) : null,
        configurations: JSON.stringify(entry.configurations),
        ...(keepHeldSet
          ? {}
          : {
              tle: entry.tle ? JSON.stringify(entry.tle) : null,
              tleEpoch,
              tleSource: entry.tle ? source : null,
            }),
        images: JSON.stringify(
          entry.images.map((img) =>
            img.startsWith('/') || img.includes('://') ? img : `/images/${img}`,
          ),
        ),
        webTemplate: template,
        decoder: entry.decoder,
        ...(entry.satnogsForward === undefined
          ? {}
          : { satnogsForward: entry.satnogsForward ? 1 : 0 }),
        updatedAt: now,
      };
      await upsertSatelliteEntry(trx, entry.name, row);
    }
  });
  return items.length;
}

/**
 * Loads the seed catalogue. Without the demo (DEMO=0) only the real satellites are loaded, and
 * without their element sets: the seed's are made up, a refresh (TLE_SOURCES) brings real ones.
 */
export async function seedCatalogue(
  database: Db,
  options: { demo: boolean; dir?: string } = { demo: true },
): Promise<number> {
  const items = readCatalogue(options.dir).flatMap((item) =>
    options.demo
      ? [item]
      : item.entry.invented
        ? []
        : [{ ...item, entry: { ...item.entry, tle: null } }],
  );
  return upsertSatellites(database, items);
}
