import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../dialect';

/**
 * PostgreSQL: the trigger of migration 015 locks the customer's row `FOR NO KEY UPDATE` instead of
 * `FOR UPDATE`. A licence's insert already holds `FOR KEY SHARE` on that row (its foreign key);
 * `FOR UPDATE` conflicts with that share, so two licences created at once in one customer each
 * waited for the other's share to go: a deadlock, answered 500. `FOR NO KEY UPDATE` is the lock the
 * trigger's own UPDATE takes anyway: it does not conflict with a foreign key's share, and still
 * makes the writers of one customer's licences recompute its date one after the other
 * (docs/decisions/045). SQLite writes one transaction at a time: nothing to change.
 */
export function lastLicenceEndLockMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect === 'postgres') await replaceFunction(db, 'FOR NO KEY UPDATE');
    },
    async down(db: Kysely<any>) {
      if (dialect === 'postgres') await replaceFunction(db, 'FOR UPDATE');
    },
  };
}

async function replaceFunction(db: Kysely<any>, lock: 'FOR NO KEY UPDATE' | 'FOR UPDATE') {
  await sql
    .raw(
      `CREATE OR REPLACE FUNCTION customers_last_licence_end() RETURNS trigger LANGUAGE plpgsql AS $$
       DECLARE
         affected integer;
       BEGIN
         FOREACH affected IN ARRAY (
           CASE TG_OP
             WHEN 'INSERT' THEN ARRAY[NEW.customer_id]
             WHEN 'DELETE' THEN ARRAY[OLD.customer_id]
             ELSE ARRAY(SELECT DISTINCT unnest(ARRAY[OLD.customer_id, NEW.customer_id]) ORDER BY 1)
           END
         ) LOOP
           PERFORM 1 FROM customers WHERE id = affected ${lock};
           UPDATE customers SET last_licence_end =
             (SELECT max(end_date) FROM licences WHERE customer_id = affected)
           WHERE id = affected;
         END LOOP;
         RETURN NULL;
       END
       $$`,
    )
    .execute(db);
}
