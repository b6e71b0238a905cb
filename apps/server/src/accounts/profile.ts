// The user's own profile (e-mail login preferences) and the change of the login address: a new
// address waits (users.pending_email) until the link mailed to it is opened, the current address is
// told, and confirming logs out every other session (docs/SECURITY.md).
import {
  OFFLINE_ALERT_DEFAULT_DELAY_MINUTES,
  type User,
  type UserUpdateBody,
} from '@tinygs/contracts';
import type { AppContext } from '../context';
import type { UserRow } from '../db/schema';
import { conflict, notFound } from '../http/errors';
import { hashToken, randomToken } from '../lib/crypto';
import { mailerOf } from '../mail/part';
import { emailChangeNoticeMail, emailValidationMail } from '../mail/templates';
import {
  consumeEmailValidation,
  insertEmailValidation,
  revokeSessions,
} from '../repositories/sessions';
import { alertChatOf } from '../health/offline-alerts';
import { findAlertPreference, saveAlertPreference } from '../repositories/offline-alerts';
import {
  applyPendingEmail,
  findUserByEmail,
  findUserById,
  markEmailValidated,
  updateUserProfile,
} from '../repositories/users';
import { enforceLimit } from './rate-limit';
import { accountsState } from './state';

export const EMAIL_VALIDATION_TTL_MS = 48 * 60 * 60 * 1000;
const EMAIL_TAKEN = 'This e-mail address is already used by another account.';
const VALIDATION_WAIT = 'Too many e-mail changes. Please try again later.';

export function toUser(row: UserRow): User {
  const frequency = row.newsletterFrequency;
  return {
    email: row.email ?? '',
    emailVal: row.emailVal === 1,
    acceptedTerms: row.acceptedTerms === 1,
    newsletterFrequency: frequency === 'daily' || frequency === 'weekly' ? frequency : 'none',
    ...(row.pendingEmail ? { pendingEmail: row.pendingEmail } : {}),
  };
}

export async function getProfile(ctx: AppContext, userId: string): Promise<User> {
  const db = ctx.database.db;
  const [row, alerts] = await Promise.all([
    findUserById(db, userId),
    findAlertPreference(db, userId),
  ]);
  if (!row) throw notFound('User not found');
  return {
    ...toUser(row),
    offlineAlerts: {
      enabled: alerts?.enabled ?? false,
      delayMinutes: alerts?.delayMinutes ?? OFFLINE_ALERT_DEFAULT_DELAY_MINUTES,
      viaBot: alertChatOf(ctx.config, row) !== null,
    },
  };
}

/** Mails a validation link for `email`; `keepSessionHash` is set for a change of address. */
async function sendValidationMail(
  ctx: AppContext,
  userId: string,
  email: string,
  change: { keepSessionHash: string } | null,
): Promise<void> {
  const token = randomToken(32);
  const now = Date.now();
  await insertEmailValidation(ctx.database.db, {
    tokenHash: hashToken(token),
    userId,
    email,
    createdAt: now,
    expiresAt: now + EMAIL_VALIDATION_TTL_MS,
    keepSessionHash: change?.keepSessionHash ?? null,
  });
  const url = `${ctx.config.publicUrl}/v1/user/validate?${new URLSearchParams({ token }).toString()}`;
  const content = emailValidationMail({
    productName: ctx.config.productName,
    url,
    email,
    validHours: EMAIL_VALIDATION_TTL_MS / 3_600_000,
    change: change !== null,
  });
  await mailerOf(ctx).send({ to: email, ...content });
}

/** Tells the current login address that a change away from it was asked for or made. */
async function sendChangeNotice(
  ctx: AppContext,
  oldEmail: string | null,
  newEmail: string,
  stage: 'requested' | 'made',
): Promise<void> {
  if (!oldEmail) return;
  const { productName, publicUrl } = ctx.config;
  const content = emailChangeNoticeMail({ productName, publicUrl, newEmail, stage });
  await mailerOf(ctx).send({ to: oldEmail, ...content });
}

/**
 * Saves the preferences. A new address is only pending: it becomes the login address when the link
 * mailed to it is opened (validateEmail). Saving the current address again cancels a pending change.
 */
export async function updateProfile(
  ctx: AppContext,
  session: { userId: string; tokenHash: string },
  body: UserUpdateBody,
  reply: { header(name: string, value: string): unknown },
): Promise<User> {
  const { userId } = session;
  const db = ctx.database.db;
  const current = await findUserById(db, userId);
  if (!current) throw notFound('User not found');
  const email = body.email.toLowerCase();
  const preferences = {
    acceptedTerms: body.acceptedTerms,
    newsletterFrequency: body.newsletterFrequency,
  };
  const limiter = accountsState(ctx).limits.validationMailPerUser;
  const saveAlerts = async () => {
    if (body.offlineAlerts) await saveAlertPreference(db, userId, body.offlineAlerts, Date.now());
  };
  if (email !== current.email) {
    const owner = await findUserByEmail(db, email);
    if (owner && owner.id !== userId) throw conflict(EMAIL_TAKEN);
    // Changing the address again and again would let anyone use us to mail strangers.
    enforceLimit(reply, limiter, userId, VALIDATION_WAIT);
    await saveAlerts();
    await updateUserProfile(db, userId, { ...preferences, pendingEmail: email });
    await sendValidationMail(ctx, userId, email, { keepSessionHash: session.tokenHash });
    await sendChangeNotice(ctx, current.email, email, 'requested');
    return getProfile(ctx, userId);
  }
  await saveAlerts();
  await updateUserProfile(db, userId, { ...preferences, pendingEmail: null });
  // An address registered through the chat bot was never validated: saving sends the link too, but
  // saving other preferences repeatedly must still work, so the reminder is skipped when limited.
  if (current.emailVal !== 1 && limiter.retryAfterMs(userId) === 0) {
    limiter.record(userId);
    await sendValidationMail(ctx, userId, email, null);
  }
  return getProfile(ctx, userId);
}

/** What opening a validation link did. */
export type ValidationOutcome = 'changed' | 'validated' | 'taken' | 'invalid';

/**
 * Opens a validation link. For a pending change the address becomes the login address, every
 * other session of the user ends and the old address is told; for the current address it is
 * marked validated. A link for an address no longer pending or current does nothing.
 */
export async function validateEmail(ctx: AppContext, token: string): Promise<ValidationOutcome> {
  const db = ctx.database.db;
  const used = await consumeEmailValidation(db, hashToken(token), Date.now());
  if (!used) return 'invalid';
  const user = await findUserById(db, used.userId);
  if (!user) return 'invalid';
  if (user.pendingEmail === used.email) {
    const applied = await applyPendingEmail(db, user.id, used.email);
    if (applied === 'taken') return 'taken';
    if (applied === 'changed') {
      const ended = await revokeSessions(db, user.id, used.keepSessionHash);
      ctx.log.info({ userId: user.id, endedSessions: ended }, 'login address changed');
      await sendChangeNotice(ctx, user.email, used.email, 'made');
      return 'changed';
    }
  }
  if (user.email === used.email && (await markEmailValidated(db, user.id, used.email)))
    return 'validated';
  return 'invalid';
}
