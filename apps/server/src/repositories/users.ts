// Users: accounts, profile preferences and the encrypted MQTT password the broker checks.
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../db/schema';

export interface NewUserInput {
  id: string;
  email: string | null;
  mqttPasswordEnc: string;
  telegramChatId?: string | null;
  displayName?: string | null;
  emailVal?: boolean;
  createdAt: number;
}

export async function findUserById(db: Kysely<Database>, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** E-mail addresses are stored lower-case; the argument is normalised the same way. */
export async function findUserByEmail(
  db: Kysely<Database>,
  email: string,
): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', email.trim().toLowerCase())
    .executeTakeFirst();
}

export async function insertUser(db: Kysely<Database>, user: NewUserInput): Promise<void> {
  await db
    .insertInto('users')
    .values({
      id: user.id,
      email: user.email?.toLowerCase() ?? null,
      emailVal: user.emailVal ? 1 : 0,
      acceptedTerms: 0,
      newsletterFrequency: 'none',
      mqttPasswordEnc: user.mqttPasswordEnc,
      telegramChatId: user.telegramChatId ?? null,
      displayName: user.displayName ?? null,
      isAdmin: 0,
      createdAt: user.createdAt,
    })
    .execute();
}

/**
 * Saves the preferences and the address waiting for confirmation (null: none). The login address
 * itself changes only in applyPendingEmail.
 */
export async function updateUserProfile(
  db: Kysely<Database>,
  id: string,
  profile: {
    pendingEmail: string | null;
    acceptedTerms: boolean;
    newsletterFrequency: string;
  },
): Promise<void> {
  await db
    .updateTable('users')
    .set({
      pendingEmail: profile.pendingEmail?.toLowerCase() ?? null,
      acceptedTerms: profile.acceptedTerms ? 1 : 0,
      newsletterFrequency: profile.newsletterFrequency,
    })
    .where('id', '=', id)
    .execute();
}

function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/**
 * Makes the user's pending address the login address (validated) if it is still `email`: 'changed';
 * 'taken' when another account has meanwhile made it its own (the pending change is dropped);
 * 'stale' when the pending address is another one or none.
 */
export async function applyPendingEmail(
  db: Kysely<Database>,
  id: string,
  email: string,
): Promise<'changed' | 'taken' | 'stale'> {
  const address = email.toLowerCase();
  const taken = async () => {
    await db
      .updateTable('users')
      .set({ pendingEmail: null })
      .where('id', '=', id)
      .where('pendingEmail', '=', address)
      .execute();
    return 'taken' as const;
  };
  const owner = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', address)
    .executeTakeFirst();
  if (owner && owner.id !== id) return taken();
  try {
    const result = await db
      .updateTable('users')
      .set({ email: address, emailVal: 1, pendingEmail: null })
      .where('id', '=', id)
      .where('pendingEmail', '=', address)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n ? 'changed' : 'stale';
  } catch (err) {
    // Another account confirmed the same address between the check and the update.
    if (isUniqueViolation(err)) return taken();
    throw err;
  }
}

/** Sets the e-mail of a user who has none or a different one; validation starts over. */
export async function setUserEmail(db: Kysely<Database>, id: string, email: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ email: email.toLowerCase(), emailVal: 0, pendingEmail: null })
    .where('id', '=', id)
    .execute();
}

/** Marks the address validated only if it is still the user's address. */
export async function markEmailValidated(
  db: Kysely<Database>,
  id: string,
  email: string,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ emailVal: 1 })
    .where('id', '=', id)
    .where('email', '=', email.toLowerCase())
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function updateTelegramChat(
  db: Kysely<Database>,
  id: string,
  chat: { telegramChatId: string; displayName: string | null },
): Promise<void> {
  await db.updateTable('users').set(chat).where('id', '=', id).execute();
}

/** Replaces the account-wide MQTT password (already encrypted). */
export async function setMqttPasswordEnc(
  db: Kysely<Database>,
  id: string,
  mqttPasswordEnc: string,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ mqttPasswordEnc })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Every account's encrypted MQTT password (reconciling an external broker's accounts). */
export async function listUserMqttSecrets(
  db: Kysely<Database>,
): Promise<{ id: string; mqttPasswordEnc: string }[]> {
  return db.selectFrom('users').select(['id', 'mqttPasswordEnc']).execute();
}
