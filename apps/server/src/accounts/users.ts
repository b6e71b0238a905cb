// Accounts: creating users (chat bot, admin CLI, demo user) and their broker credentials.
import { randomInt } from 'node:crypto';
import type { MqttCredentials } from '@tinygs/contracts';
import type { AppContext } from '../context';
import type { UserRow } from '../db/schema';
import { decryptSecret, encryptSecret, randomToken } from '../lib/crypto';
import { syncBrokerAccount } from '../network/broker-accounts-sync';
import { findUserByEmail, findUserById, insertUser } from '../repositories/users';

// Ids the server allots itself are 12 digits: outside the range chat-platform ids have used so far,
// so a later /start by a chat user cannot collide with a CLI-made account.
const ALLOTTED_ID_MIN = 100_000_000_000;
const ALLOTTED_ID_MAX = 1_000_000_000_000;

export function newMqttPassword(): string {
  return randomToken(18);
}

async function allotUserId(ctx: AppContext): Promise<string> {
  for (;;) {
    const id = String(randomInt(ALLOTTED_ID_MIN, ALLOTTED_ID_MAX));
    if (!(await findUserById(ctx.database.db, id))) return id;
  }
}

export interface CreateUserInput {
  /** The chat platform's numeric user id; omitted, the server allots one. */
  id?: string;
  email?: string | null;
  emailVal?: boolean;
  telegramChatId?: string | null;
  displayName?: string | null;
}

export async function createUser(ctx: AppContext, input: CreateUserInput): Promise<string> {
  const id = input.id ?? (await allotUserId(ctx));
  const password = newMqttPassword();
  await insertUser(ctx.database.db, {
    id,
    email: input.email ?? null,
    emailVal: input.emailVal ?? false,
    telegramChatId: input.telegramChatId ?? null,
    displayName: input.displayName ?? null,
    mqttPasswordEnc: encryptSecret(password, ctx.config.serverSecret),
    createdAt: Date.now(),
  });
  // An external broker learns of the account now; failing that, at its next reconciliation.
  await syncBrokerAccount(ctx, id, password).catch((err: unknown) =>
    ctx.log.warn(
      { err, userId: id },
      'broker account not created yet; the next reconciliation will',
    ),
  );
  return id;
}

/** The user with this e-mail address, created when there is none (admin CLI, demo user). */
export async function ensureUserByEmail(
  ctx: AppContext,
  email: string,
  options: { emailVal?: boolean; id?: string } = {},
): Promise<{ user: UserRow; created: boolean }> {
  const existing = await findUserByEmail(ctx.database.db, email);
  if (existing) return { user: existing, created: false };
  const id = await createUser(ctx, {
    id: options.id,
    email: email.trim().toLowerCase(),
    emailVal: options.emailVal,
  });
  const user = await findUserById(ctx.database.db, id);
  if (!user) throw new Error(`user ${id} vanished right after it was created`);
  return { user, created: true };
}

/** What the firmware logs in to the broker with: the numeric user id and the decrypted password. */
export function mqttCredentialsOf(ctx: AppContext, user: UserRow): MqttCredentials {
  return { user: user.id, pass: decryptSecret(user.mqttPasswordEnc, ctx.config.serverSecret) };
}
