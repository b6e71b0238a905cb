// A changed e-mail address waits in users.pending_email until the link mailed to it is opened; login
// stays on users.email until then. The validation link remembers the session that asked for the
// change: confirming it logs out every other session of the user (docs/SECURITY.md).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('pending_email', 'text').execute();
  await db.schema.alterTable('email_validations').addColumn('keep_session_hash', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('email_validations').dropColumn('keep_session_hash').execute();
  await db.schema.alterTable('users').dropColumn('pending_email').execute();
}
