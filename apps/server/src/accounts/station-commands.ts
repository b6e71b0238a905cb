// What the owner actions need from the network part's CommandService (ctx.services.commands):
// tune now (`begine`) and transmit (`tx`), rejecting with NotOnlineError for an offline station.
import type { ModemConf } from '@tinygs/contracts';
import type { AppContext } from '../context';
import { conflict, HttpError } from '../http/errors';

export interface StationCommands {
  begine(stationId: string, modemConf: ModemConf): Promise<unknown>;
  tx(stationId: string, bytes: Uint8Array): Promise<unknown>;
}

export const STATION_OFFLINE = 'The station is offline. Please reconnect it and try again.';

function isStationCommands(value: unknown): value is StationCommands {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.begine === 'function' && typeof v.tx === 'function';
}

export function stationCommands(ctx: AppContext): StationCommands {
  const service: unknown = ctx.services.commands;
  if (!isStationCommands(service)) {
    throw new HttpError(503, 'Station commands are not available right now. Please try again later.');
  }
  return service;
}

function isNotOnline(err: unknown): boolean {
  return err instanceof Error && (err.name === 'NotOnlineError' || err.constructor.name === 'NotOnlineError');
}

/** Runs a command; a station that turns out to be offline becomes 409 (SPEC.md: Operate save, 409). */
export async function sendToStation(run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (err) {
    if (isNotOnline(err)) throw conflict(STATION_OFFLINE);
    throw err;
  }
}
