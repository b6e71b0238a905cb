// The user's own profile (e-mail login preferences) and validation of a changed e-mail address.
import type { User, UserUpdateBody } from '@tinygs/contracts';
import type { AppContext } from '../context';
import type { UserRow } from '../db/schema';
import { conflict, notFound } from '../http/errors';
import { hashToken, randomToken } from '../lib/crypto';
import { mailerOf } from '../mail/part';
import { emailValidationMail } from '../mail/templates';
import { consumeEmailValidation, insertEmailValidation } from '../repositories/sessions';
import {
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
  };
}

export async function getProfile(ctx: AppContext, userId: string): Promise<User> {
  const row = await findUserById(ctx.database.db, userId);
  if (!row) throw notFound('User not found');
  return toUser(row);
}

async function sendValidationMail(ctx: AppContext, userId: string, email: string): Promise<void> {
  const token = randomToken(32);
  const now = Date.now();
  await insertEmailValidation(ctx.database.db, {
    tokenHash: hashToken(token),
    userId,
    email,
    createdAt: now,
    expiresAt: now + EMAIL_VALIDATION_TTL_MS,
  });
  const url = `${ctx.config.publicUrl}/v1/user/validate?${new URLSearchParams({ token }).toString()}`;
  const content = emailValidationMail({
    productName: ctx.config.productName,
    url,
    email,
    validHours: EMAIL_VALIDATION_TTL_MS / 3_600_000,
  });
  await mailerOf(ctx).send({ to: email, ...content });
}

/** Saves the preferences; an address is unvalidated until the link mailed to it is opened. */
export async function updateProfile(
  ctx: AppContext,
  userId: string,
  body: UserUpdateBody,
  reply: { header(name: string, value: string): unknown },
): Promise<User> {
  const current = await findUserById(ctx.database.db, userId);
  if (!current) throw notFound('User not found');
  const email = body.email.toLowerCase();
  const changed = email !== current.email;
  // An address registered through the chat bot was never validated: saving sends the link too.
  const needsValidation = changed || current.emailVal !== 1;
  const limiter = accountsState(ctx).limits.validationMailPerUser;
  let sendMail = needsValidation;
  if (changed) {
    const owner = await findUserByEmail(ctx.database.db, email);
    if (owner && owner.id !== userId) throw conflict(EMAIL_TAKEN);
    // Changing the address again and again would let anyone use us to mail strangers.
    enforceLimit(reply, limiter, userId, VALIDATION_WAIT);
  } else if (needsValidation) {
    // Saving other preferences repeatedly must still work; the reminder mail is just skipped.
    sendMail = limiter.retryAfterMs(userId) === 0;
    if (sendMail) limiter.record(userId);
  }
  await updateUserProfile(ctx.database.db, userId, {
    email,
    emailVal: !needsValidation,
    acceptedTerms: body.acceptedTerms,
    newsletterFrequency: body.newsletterFrequency,
  });
  if (sendMail) await sendValidationMail(ctx, userId, email);
  return getProfile(ctx, userId);
}

/** Opens a validation link; true when the address it was sent to is now validated. */
export async function validateEmail(ctx: AppContext, token: string): Promise<boolean> {
  const used = await consumeEmailValidation(ctx.database.db, hashToken(token), Date.now());
  if (!used) return false;
  return markEmailValidated(ctx.database.db, used.userId, used.email);
}
