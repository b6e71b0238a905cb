// New stations by one-time code (PROTOCOL.md): the owner submits the code the station shows, the
// station collects its MQTT credentials and settings once with GET /credentials?otp=, then connects.
import {
  formatStationId,
  OTP_TTL_MS,
  type CreationPayload,
  type FirmwareCredentialsResponse,
  type StationCreatedResponse,
} from '@tinygs/contracts';
import type { AppContext } from '../context';
import type { PendingCreationRow } from '../db/schema';
import { conflict, notFound } from '../http/errors';
import { decryptSecret, encryptSecret, newObjectId } from '../lib/crypto';
import {
  findRecentByOtp,
  findWaitingByOtp,
  insertCreation,
  latestCreationOfUser,
  markDelivered,
  setCreationOutcome,
} from '../repositories/creations';
import { findUserById } from '../repositories/users';
import { brokerAddress } from './broker-address';
import { isStationOnline } from './station-commands';
import { issueStationCredential } from './station-credential';
import { findOwnedStation } from './stations-store';

/** After collecting its credentials a station reboots and connects; give it this long. */
export const CONNECT_GRACE_MS = 30 * 60 * 1000;

export const CREATION_TEXTS = {
  started:
    'Waiting for the station to collect its credentials. Keep it powered and connected to Wi-Fi.',
  delivered: 'The station has its credentials and is connecting to the network.',
  nothing: 'There is no station creation to check. Please start again.',
  codeInUse: 'This one-time code is already in use. Restart the station to get a new code.',
  codeUsed: 'This one-time code was already used. Restart the station to get a new code.',
  replaced: 'Replaced by a newer request with the same code.',
  expired:
    'The station did not collect its credentials within 30 minutes. Check the code the station shows and try again.',
  notConnected:
    'The station collected its credentials but has not connected to the network. Check its Wi-Fi and power, then try again.',
} as const;

export function nameTakenText(name: string): string {
  return `You already have a station named ${name}. Please choose another name.`;
}

export function otpText(otp: number): string {
  return String(otp).padStart(6, '0');
}

export async function submitCreation(
  ctx: AppContext,
  userId: string,
  payload: CreationPayload,
): Promise<StationCreatedResponse> {
  const db = ctx.database.db;
  const now = Date.now();
  const otp = otpText(payload.otp);
  if (await findOwnedStation(ctx, formatStationId(payload.station_name, userId))) {
    throw conflict(nameTakenText(payload.station_name));
  }
  const waiting = await findWaitingByOtp(db, otp, now);
  if (waiting && waiting.userId !== userId) throw conflict(CREATION_TEXTS.codeInUse);
  const recent = await findRecentByOtp(db, otp, now - OTP_TTL_MS);
  if (recent && (recent.status === 'delivered' || recent.status === 'success')) {
    throw conflict(CREATION_TEXTS.codeUsed);
  }
  // The same owner may correct the details and submit the code again (SPEC.md: cancel, amend, retry).
  if (waiting)
    await setCreationOutcome(db, waiting.id, { status: 'error', text: CREATION_TEXTS.replaced });
  await insertCreation(db, {
    id: newObjectId(now),
    otp,
    userId,
    stationName: payload.station_name,
    lat: payload.location[0],
    lng: payload.location[1],
    adminPwEnc: encryptSecret(payload.admin_pw, ctx.config.serverSecret),
    tz: payload.tz,
    createdAt: now,
    expiresAt: now + OTP_TTL_MS,
  });
  return { status: 'pending', text: CREATION_TEXTS.started };
}

/** GET /credentials?otp=: the credentials exactly once; 404 before submission and after delivery. */
export async function collectCredentials(
  ctx: AppContext,
  otp: string,
): Promise<FirmwareCredentialsResponse> {
  const db = ctx.database.db;
  const now = Date.now();
  const creation = await findWaitingByOtp(db, otp, now);
  if (!creation) throw notFound('Unknown one-time code');
  const user = await findUserById(db, creation.userId);
  if (!user) throw notFound('Unknown one-time code');
  const adminPw = decryptSecret(creation.adminPwEnc, ctx.config.serverSecret);
  // The station gets a password of its own, bound to its name, in the same step that uses up the
  // code: a code is delivered with exactly one credential.
  const pass = await db.transaction().execute(async (trx) => {
    if (!(await markDelivered(trx, creation.id, now))) return null;
    return issueStationCredential(ctx, trx, user.id, creation.stationName, now);
  });
  if (pass === null) throw notFound('Unknown one-time code');
  const broker = brokerAddress(ctx);
  return {
    mqtt: { user: user.id, pass, server: broker.server, port: String(broker.port) },
    config: {
      stationName: creation.stationName,
      adminPw,
      latitude: String(creation.lat),
      longitude: String(creation.lng),
      tz: creation.tz,
    },
  };
}

async function settle(
  ctx: AppContext,
  row: PendingCreationRow,
  now: number,
): Promise<StationCreatedResponse> {
  const db = ctx.database.db;
  if (row.status === 'pending') {
    if (row.expiresAt > now) return { status: 'pending', text: CREATION_TEXTS.started };
    await setCreationOutcome(db, row.id, { status: 'error', text: CREATION_TEXTS.expired });
    return { status: 'error', text: CREATION_TEXTS.expired };
  }
  // Delivered: success once the station has shown up on the broker under the submitted name.
  const stationId = formatStationId(row.stationName, row.userId);
  const station = await findOwnedStation(ctx, stationId);
  const connected =
    station !== undefined &&
    (isStationOnline(ctx, station) ||
      station.status === 1 ||
      (station.lastSeen ?? 0) >= (row.deliveredAt ?? 0));
  if (connected) {
    const text = `Station ${row.stationName} is connected. Welcome to the network!`;
    await setCreationOutcome(db, row.id, { status: 'success', text });
    return { status: 'success', text };
  }
  if ((row.deliveredAt ?? now) + CONNECT_GRACE_MS < now) {
    await setCreationOutcome(db, row.id, { status: 'error', text: CREATION_TEXTS.notConnected });
    return { status: 'error', text: CREATION_TEXTS.notConnected };
  }
  return { status: 'pending', text: CREATION_TEXTS.delivered };
}

/** GET /v1/station_created: the outcome of the user's latest creation. */
export async function creationStatus(
  ctx: AppContext,
  userId: string,
): Promise<StationCreatedResponse> {
  const row = await latestCreationOfUser(ctx.database.db, userId);
  if (!row) return { status: 'error', text: CREATION_TEXTS.nothing };
  if (row.status === 'success') return { status: 'success', text: row.text };
  if (row.status === 'error') return { status: 'error', text: row.text };
  return settle(ctx, row, Date.now());
}
