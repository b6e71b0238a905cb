// The few station queries the owner actions need. The network part owns repositories/stations.ts;
// these stay here (one file, SQL only) until that repository offers the same calls.
import type { AppContext } from '../context';
import type { StationRow, StationUpdate } from '../db/schema';

export async function findOwnedStation(
  ctx: AppContext,
  id: string,
): Promise<StationRow | undefined> {
  return ctx.database.db.selectFrom('stations').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateStationSettings(
  ctx: AppContext,
  id: string,
  patch: StationUpdate,
): Promise<void> {
  await ctx.database.db.updateTable('stations').set(patch).where('id', '=', id).execute();
}

/**
 * Removes a station and its picture rows in one transaction (the caller has checked it is offline);
 * false when it was already gone. Packets and receptions stay: they belong to the network.
 */
export async function deleteStationWithPictures(ctx: AppContext, id: string): Promise<boolean> {
  return ctx.database.db.transaction().execute(async (trx) => {
    const result = await trx.deleteFrom('stations').where('id', '=', id).executeTakeFirst();
    if (result.numDeletedRows === 0n) return false;
    await trx.deleteFrom('stationPictures').where('stationId', '=', id).execute();
    return true;
  });
}
