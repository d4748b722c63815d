import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect';
import { columnsFor, createTable, index } from './helpers';

/**
 * Two-factor sign-in (docs/security.md, docs/decisions/071).
 * - `passkeys`: WebAuthn credentials, by their credential id (unique: it names the user of a
 *   password-less sign-in), with the public key and the signature counter.
 * - `totp_authenticators`: one authenticator app per user; the shared secret sealed under the server
 *   secret (the portal must compute codes, so it cannot keep a hash); `confirmed_at` null while the
 *   enrolment waits for its first code; `last_step` the time step of the last code accepted, so a
 *   code is never accepted twice.
 * - `recovery_codes`: ten per user, only their SHA-256 kept, each used once.
 * - `two_factor_challenges`: short-lived server-side state: a pending sign-in (the password was
 *   right, the second factor is awaited; or a password-less passkey sign-in), keyed by the hash of
 *   its cookie, and the WebAuthn challenges of passkey registration, bound to the session.
 */
export function twoFactorMigration(dialect: DialectName): Migration {
  const { id } = columnsFor(dialect);
  return {
    async up(db: Kysely<any>) {
      await createTable(db, 'passkeys', (t) =>
        t
          .addColumn('id', 'integer', id)
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('credential_id', 'text', (c) => c.notNull().unique())
          .addColumn('public_key', 'text', (c) => c.notNull())
          .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
          .addColumn('transports', 'text', (c) => c.notNull().defaultTo('[]'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('last_used_at', 'text'),
      );
      await index(db, 'passkeys', ['user_id']);
      await createTable(db, 'totpAuthenticators', (t) =>
        t
          .addColumn('id', 'integer', id)
          .addColumn('user_id', 'integer', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('secret_sealed', 'text', (c) => c.notNull())
          .addColumn('confirmed_at', 'text')
          .addColumn('last_step', 'bigint')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('last_used_at', 'text'),
      );
      await createTable(db, 'recoveryCodes', (t) =>
        t
          .addColumn('id', 'integer', id)
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('code_hash', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('used_at', 'text'),
      );
      await index(db, 'recovery_codes', ['user_id']);
      await createTable(db, 'twoFactorChallenges', (t) =>
        t
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
          .addColumn('login_email', 'text')
          .addColumn('challenge', 'text')
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('expires_at', 'text', (c) => c.notNull()),
      );
      await index(db, 'two_factor_challenges', ['expires_at']);
      await index(db, 'two_factor_challenges', ['user_id']);
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('two_factor_challenges').execute();
      await db.schema.dropTable('recovery_codes').execute();
      await db.schema.dropTable('totp_authenticators').execute();
      await db.schema.dropTable('passkeys').execute();
    },
  };
}
