import type { Kysely, Migration } from 'kysely';
import { createTable, index } from './helpers';

/**
 * The answers of creating requests sent with an `Idempotency-Key` header (docs/decisions/047): the
 * same caller sending the same key and body again gets the first answer instead of a second entity.
 * `status` is null while the first request is under way. Purged a day after they were made.
 */
export function idempotencyKeysMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await createTable(db, 'idempotencyKeys', (t) =>
        t
          .addColumn('caller', 'text', (c) => c.notNull())
          .addColumn('key', 'text', (c) => c.notNull())
          .addColumn('request_hash', 'text', (c) => c.notNull())
          .addColumn('status', 'integer')
          .addColumn('response_body', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('idempotency_keys_pk', ['caller', 'key']),
      );
      await index(db, 'idempotency_keys', ['created_at']);
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('idempotency_keys').execute();
    },
  };
}
