// Element sets held by the catalogue and the validators of their sources (docs/OPERATIONS.md,
// "Element sets"). Writes are guarded in SQL, so two refreshes racing never put an older set back.
import type { Kysely } from 'kysely';
import type { Database, ElementSetSourcesTable } from '../db/schema';

export interface HeldSet {
  name: string;
  norad: number;
  status: string;
  tleEpoch: number | null;
  tle: string | null;
}

/** Catalogue satellites with a NORAD id: what a refresh can find sets for. */
export async function listHeldSets(db: Kysely<Database>): Promise<HeldSet[]> {
  const rows = await db
    .selectFrom('satellites')
    .select(['name', 'norad', 'status', 'tleEpoch', 'tle'])
    .where('norad', 'is not', null)
    .orderBy('name')
    .execute();
  return rows.flatMap((r) => (r.norad === null ? [] : [{ ...r, norad: r.norad }]));
}

/**
 * Stores a satellite's new set; unless forced, only over a set with an older epoch (or none).
 * True when the row changed.
 */
export async function storeElementSet(
  db: Kysely<Database>,
  set: {
    name: string;
    lines: readonly [string, string, string];
    epochMs: number;
    source: string;
    force: boolean;
  },
): Promise<boolean> {
  let q = db
    .updateTable('satellites')
    .set({
      tle: JSON.stringify(set.lines),
      tleEpoch: set.epochMs,
      tleSource: set.source,
      updatedAt: Date.now(),
    })
    .where('name', '=', set.name);
  if (!set.force)
    q = q.where((eb) => eb.or([eb('tleEpoch', 'is', null), eb('tleEpoch', '<', set.epochMs)]));
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export type SourceState = Omit<ElementSetSourcesTable, 'url'>;

export async function readSourceStates(
  db: Kysely<Database>,
  urls: readonly string[],
): Promise<Map<string, SourceState>> {
  if (urls.length === 0) return new Map();
  const rows = await db
    .selectFrom('elementSetSources')
    .selectAll()
    .where('url', 'in', [...urls])
    .execute();
  return new Map(rows.map(({ url, ...state }) => [url, state]));
}

/** When any source was last asked (null: never): the next scheduled run counts from it. */
export async function lastSourceCheck(db: Kysely<Database>): Promise<number | null> {
  const row = await db
    .selectFrom('elementSetSources')
    .select((eb) => eb.fn.max('checkedAt').as('last'))
    .executeTakeFirst();
  return row?.last === undefined || row.last === null ? null : Number(row.last);
}

export async function saveSourceState(
  db: Kysely<Database>,
  url: string,
  state: SourceState,
): Promise<void> {
  await db
    .insertInto('elementSetSources')
    .values({ url, ...state })
    .onConflict((oc) => oc.column('url').doUpdateSet(state))
    .execute();
}
