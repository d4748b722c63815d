import { type Kysely, type Migration, sql } from 'kysely';
import { createTable, index } from './helpers';

/**
 * The OpenID Connect provider's state (docs/oidc.md, decision 070): one table for every model the
 * provider stores (sessions, interactions, codes, tokens, grants...), keyed by model name and id,
 * the payload as JSON; the columns the provider looks rows up by (grant id, user code, uid) and the
 * expiry the purge reads are indexed. And the keys that sign its tokens, kept like the licence
 * signing keys (migration 007): at most one active, retired ones still published.
 */
export function oidcProviderMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await createTable(db, 'oidcModels', (t) =>
        t
          .addColumn('model', 'text', (c) => c.notNull())
          .addColumn('id', 'text', (c) => c.notNull())
          .addColumn('payload', 'text', (c) => c.notNull())
          .addColumn('grant_id', 'text')
          .addColumn('user_code', 'text')
          .addColumn('uid', 'text')
          .addColumn('expires_at', 'text')
          .addColumn('consumed_at', 'text')
          .addPrimaryKeyConstraint('oidc_models_pk', ['model', 'id']),
      );
      await index(db, 'oidc_models', ['grant_id']);
      await index(db, 'oidc_models', ['user_code']);
      await index(db, 'oidc_models', ['uid']);
      await index(db, 'oidc_models', ['expires_at']);
      await createTable(db, 'oidcSigningKeys', (t) =>
        t
          .addColumn('key_id', 'text', (c) => c.primaryKey())
          .addColumn('algorithm', 'text', (c) => c.notNull())
          .addColumn('public_jwk', 'text', (c) => c.notNull())
          .addColumn('private_key_sealed', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('retired_at', 'text'),
      );
      await sql`create unique index oidc_signing_keys_one_active_idx on oidc_signing_keys ((retired_at is null)) where retired_at is null`.execute(
        db,
      );
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('oidc_signing_keys').execute();
      await db.schema.dropTable('oidc_models').execute();
    },
  };
}
