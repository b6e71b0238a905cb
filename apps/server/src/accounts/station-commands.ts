// The owner actions' view of the network part's CommandService (ctx.services.commands).
import type { AppContext } from '../context';
import { conflict, HttpError } from '../http/errors';
import { NotOnlineError, type CommandService } from '../network/commands';

export const STATION_OFFLINE = 'The station is offline. Please reconnect it and try again.';

export function stationCommands(ctx: AppContext): CommandService {
  const service = ctx.services.commands;
  if (!service)
    throw new HttpError(
      503,
      'Station commands are not available right now. Please try again later.',
    );
  return service;
}

/** Online as far as the broker knows; without the network part, as far as storage knows. */
export function isStationOnline(ctx: AppContext, station: { id: string; status: number }): boolean {
  return ctx.services.commands?.isOnline(station.id) ?? station.status === 1;
}

/** Runs a command; a station that turns out to be offline becomes 409 (SPEC.md: Operate save, 409). */
export async function sendToStation(run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (err) {
    if (err instanceof NotOnlineError) throw conflict(STATION_OFFLINE);
    throw err;
  }
}
