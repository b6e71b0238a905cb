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
  findRecentOfUserByOtp,
  findWaitingByOtp,
  insertCreationWithinCap,
  latestCreationOfUser,
  markDelivered,
  setCreationOutcome,
} from '../repositories/creations';
import { findUserById } from '../repositories/users';
import { brokerAddress } from './broker-address';
import { enforceLimit, RateLimited } from './rate-limit';
import { accountsState } from './state';
import { isStationOnline } from './station-commands';
import { issueStationCredential } from './station-credential';
import { findStationRow } from '../repositories/stations';

/** After collecting its credentials a station reboots and connects; give it this long. */
export const CONNECT_GRACE_MS = 30 * 60 * 1000;

/** Limits of POST /v1/otp per user (docs/SECURITY.md); the hourly rate is in accounts/state.ts. */
export const CREATION_LIMITS = {
  /** codes one user may have waiting for their stations at once */
  pendingPerUser: 3,
  /** finished submissions are deleted by housekeeping after this */
  retentionMs: 24 * 60 * 60 * 1000,
} as const;

export const CREATION_TEXTS = {
  started:
    'Waiting for the station to collect its credentials. Keep it powered and connected to Wi-Fi.',
  delivered: 'The station has its credentials and is connecting to the network.',
  nothing: 'There is no station creation to check. Please start again.',
  codeUsed: 'This one-time code was already used. Restart the station to get a new code.',
  replaced: 'Replaced by a newer request with the same code.',
  expired:
    'The station did not collect its credentials within 30 minutes. Check the code the station shows and try again.',
  tooManyPending: `You already have ${CREATION_LIMITS.pendingPerUser} new stations waiting for their codes to be collected. Once one of them has collected its code, or after 30 minutes, you can submit another.`,
  tooManySubmissions: 'Too many station creations in the last hour. Please try again later.',
  notConnected:
    'The station collected its credentials but has not connected to the network. Check its Wi-Fi and power, then try again.',
} as const;

export function nameTakenText(name: string): string {
  return `You already have a station named ${name}. Please choose another name.`;
}

export function otpText(otp: number): string {
  return String(otp).padStart(6, '0');
}

type ReplyHeaders = { header(name: string, value: string): unknown };

/**
 * POST /v1/otp. Each submission is bound to the user who made it, and only the user's own
 * submissions are ever consulted: whether somebody else has submitted the same code is never told
 * (the answer is the same as for any new code). Which submission a station gets is decided when it
 * collects (collectCredentials).
 */
export async function submitCreation(
  ctx: AppContext,
  userId: string,
  payload: CreationPayload,
  reply: ReplyHeaders,
): Promise<StationCreatedResponse> {
  const db = ctx.database.db;
  const now = Date.now();
  const otp = otpText(payload.otp);
  // Every submission counts, before any storage work: a user sweeping codes is stopped here.
  await enforceLimit(
    reply,
    accountsState(ctx).limits.creationsPerUser,
    userId,
    CREATION_TEXTS.tooManySubmissions,
  );
  if (await findStationRow(ctx.database.db, formatStationId(payload.station_name, userId))) {
    throw conflict(nameTakenText(payload.station_name));
  }
  const recent = await findRecentOfUserByOtp(db, userId, otp, now - OTP_TTL_MS);
  if (recent && (recent.status === 'delivered' || recent.status === 'success')) {
    throw conflict(CREATION_TEXTS.codeUsed);
  }
  const refused = await insertCreationWithinCap(
    db,
    {
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
    },
    CREATION_LIMITS.pendingPerUser,
    CREATION_TEXTS.replaced,
  );
  if (refused) {
    const err = new RateLimited(refused.freeAt - now, CREATION_TEXTS.tooManyPending);
    reply.header('retry-after', String(err.retryAfterSeconds));
    throw err;
  }
  return { status: 'pending', text: CREATION_TEXTS.started };
}

/**
 * The one submission a code may deliver: the code's only claimant's (the newest, an amendment
 * replaces the older). A code claimed by more than one user delivers nothing: the server cannot
 * tell which of them holds the station, and handing it to the wrong one would give that user the
 * station (its admin password, its commands). Every claim then expires as a mistyped code does.
 */
function deliverable(waiting: PendingCreationRow[]): PendingCreationRow | undefined {
  const first = waiting[0];
  if (!first || waiting.some((row) => row.userId !== first.userId)) return undefined;
  return first;
}

/** GET /credentials?otp=: the credentials exactly once; 404 before submission and after delivery. */
export async function collectCredentials(
  ctx: AppContext,
  otp: string,
): Promise<FirmwareCredentialsResponse> {
  const db = ctx.database.db;
  const now = Date.now();
  const creation = deliverable(await findWaitingByOtp(db, otp, now));
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
  const station = await findStationRow(ctx.database.db, stationId);
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
