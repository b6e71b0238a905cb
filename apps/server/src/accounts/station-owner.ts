// What only a station's owner may do: edit, operate (tune), transmit, send a test frame, delete.
// Callers have already checked ownership; these functions enforce the station's own state.
import {
  latin1ToBytes,
  TEST_FRAME_PREFIX,
  TX_MAX_BYTES,
  type OperateModemConf,
  type StationEditBody,
  type StationOperateBody,
} from '@tinygs/contracts';
import type { AppContext } from '../context';
import type { StationRow } from '../db/schema';
import { conflict, notFound } from '../http/errors';
import { removePictureFiles } from './pictures';
import {
  isStationOnline,
  sendToStation,
  STATION_OFFLINE,
  stationCommands,
} from './station-commands';
import { deleteStationWithPictures, updateStationSettings } from '../repositories/stations';
import { listStationPictures } from '../repositories/pictures';

export const ONLY_INACTIVE_DELETE = 'Only inactive stations can be deleted';
export const TX_DISABLED =
  'Transmission is disabled by the hardware configuration of this station. It can be allowed in the local dashboard.';

function changed(ctx: AppContext, station: StationRow): void {
  ctx.events.publish('stations-changed', { stationIds: [station.id] });
}

export async function editStation(
  ctx: AppContext,
  station: StationRow,
  body: StationEditBody,
): Promise<void> {
  await updateStationSettings(ctx.database.db, station.id, {
    description: body.description,
    antenna: body.antenna,
    antennaBandLowMhz: body.antennaBand[0],
    antennaBandHighMhz: body.antennaBand[1],
    test: body.test ? 1 : 0,
    autoUpdate: body.autoUpdate ? 1 : 0,
    beta: body.beta ? 1 : 0,
    ...(body.satnogsOptOut === undefined ? {} : { satnogsOptOut: body.satnogsOptOut ? 1 : 0 }),
  });
  changed(ctx, station);
}

/** Auto tune to a band (the network's auto-tuner takes over) or manual tuning sent at once with `begine`. */
export async function operateStation(
  ctx: AppContext,
  station: StationRow,
  body: StationOperateBody,
): Promise<void> {
  if (!isStationOnline(ctx, station)) throw conflict(STATION_OFFLINE);
  if (body.autoTune !== 0) {
    await updateStationSettings(ctx.database.db, station.id, { autoTune: body.autoTune });
    changed(ctx, station);
    return;
  }
  // The body schema has already parsed and range-checked this text.
  const conf = JSON.parse(body.modem_conf ?? '{}') as OperateModemConf;
  const commands = stationCommands(ctx);
  await sendToStation(() => commands.begine(station.id, conf));
  await updateStationSettings(ctx.database.db, station.id, {
    autoTune: 0,
    modemConf: JSON.stringify(conf),
    satellite: conf.sat,
  });
  changed(ctx, station);
}

export async function transmit(
  ctx: AppContext,
  station: StationRow,
  bytes: Uint8Array,
): Promise<void> {
  if (station.tx !== 1) throw conflict(TX_DISABLED);
  if (!isStationOnline(ctx, station)) throw conflict(STATION_OFFLINE);
  const commands = stationCommands(ctx);
  await sendToStation(() => commands.tx(station.id, bytes));
}

/** A frame receivers recognise as a test (PROTOCOL.md: it starts with `TinyGS-test `). */
export function testFrame(station: StationRow, now = new Date()): Uint8Array {
  const text = `${TEST_FRAME_PREFIX}${station.name} ${now.toISOString()}`;
  return latin1ToBytes(text.slice(0, TX_MAX_BYTES));
}

export async function deleteStation(ctx: AppContext, station: StationRow): Promise<void> {
  if (isStationOnline(ctx, station)) throw conflict(ONLY_INACTIVE_DELETE);
  const pictures = await listStationPictures(ctx.database.db, station.id);
  if (!(await deleteStationWithPictures(ctx.database.db, station.id)))
    throw notFound('Station not found');
  removePictureFiles(
    ctx,
    pictures.map((p) => p.id),
  );
  changed(ctx, station);
}
