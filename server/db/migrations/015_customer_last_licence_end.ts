import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../dialect';

/**
 * The end date of a customer's latest licence, on the customer (docs/decisions/045). The staff's
 * customer list hides customers whose licences have all ended (decisions.md); with this column the
 * rule reads the customer's row instead of probing the licences for each customer the search
 * matches. Triggers on the licences keep it, so no path that writes a licence can forget it.
 */
export function customerLastLicenceEndMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('customers').addColumn('last_licence_end', 'text').execute();
      if (dialect === 'postgres') await postgresTriggers(db);
      else await sqliteTriggers(db);
      await backfillLastLicenceEnd(db);
    },
    async down(db: Kysely<any>) {
      if (dialect === 'postgres') {
        await sql`DROP TRIGGER IF EXISTS licences_last_licence_end ON licences`.execute(db);
        await sql`DROP FUNCTION IF EXISTS customers_last_licence_end()`.execute(db);
      } else {
        for (const event of ['insert', 'update', 'delete']) {
          await sql.raw(`DROP TRIGGER IF EXISTS licences_last_licence_end_${event}`).execute(db);
        }
      }
      await db.schema.alterTable('customers').dropColumn('last_licence_end').execute();
    },
  };
}

/** Every customer's latest end date from its licences (null without any): one statement. */
export async function backfillLastLicenceEnd(db: Kysely<any>) {
  await sql`
    UPDATE customers SET last_licence_end =
      (SELECT max(end_date) FROM licences WHERE licences.customer_id = customers.id)
  `.execute(db);
}

const recompute = (row: 'new' | 'old') =>
  `UPDATE customers SET last_licence_end =
     (SELECT max(end_date) FROM licences WHERE customer_id = ${row}.customer_id)
   WHERE id = ${row}.customer_id;`;

/** SQLite writes one transaction at a time, so recomputing from the licences is always current. */
async function sqliteTriggers(db: Kysely<any>) {
  await sql
    .raw(`CREATE TRIGGER licences_last_licence_end_insert AFTER INSERT ON licences BEGIN ${recompute('new')} END`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER licences_last_licence_end_delete AFTER DELETE ON licences BEGIN ${recompute('old')} END`)
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER licences_last_licence_end_update AFTER UPDATE OF end_date, customer_id ON licences BEGIN
         ${recompute('old')}
         ${recompute('new')}
       END`,
    )
    .execute(db);
}

/**
 * PostgreSQL: the customer's row is locked first, and the recomputation is a statement of its own,
 * so (in READ COMMITTED) it sees the licences of any transaction that held the lock before: two
 * transactions writing licences of one customer at once cannot leave a stale date behind.
 */
async function postgresTriggers(db: Kysely<any>) {
  await sql
    .raw(
      `CREATE FUNCTION customers_last_licence_end() RETURNS trigger LANGUAGE plpgsql AS $$
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
           PERFORM 1 FROM customers WHERE id = affected FOR UPDATE;
           UPDATE customers SET last_licence_end =
             (SELECT max(end_date) FROM licences WHERE customer_id = affected)
           WHERE id = affected;
         END LOOP;
         RETURN NULL;
       END
       $$`,
    )
    .execute(db);
  await sql`
    CREATE TRIGGER licences_last_licence_end
    AFTER INSERT OR DELETE OR UPDATE OF end_date, customer_id ON licences
    FOR EACH ROW EXECUTE FUNCTION customers_last_licence_end()
  `.execute(db);
}
