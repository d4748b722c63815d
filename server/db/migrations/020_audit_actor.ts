import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Every audit entry says who acted (docs/decisions/059): `actor_kind` (a user, an anonymous visitor,
 * a product API token, an integration, a job, the portal itself) and `actor_name`, the machine's name
 * (a token's "#id name", an integration's, a job's). Entries written before were users', except
 * those with neither a user nor an address: the secret URL's anonymous downloads.
 *
 * The kinds are frozen here (a migration that ran does not change); constraints.ts declares the same
 * CHECK from common/audit.ts, and its test compares the two on a migrated database.
 */
const ACTOR_KINDS = ['user', 'anonymous', 'token', 'integration', 'job', 'system'];

export function auditActorMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      const allowed = sql.join(ACTOR_KINDS.map((kind) => sql.lit(kind)));
      await sql`alter table audit_log add column actor_kind text not null default 'user' constraint "audit_log_actor_kind_check" check (actor_kind in (${allowed}))`.execute(
        db,
      );
      await db.schema.alterTable('audit_log').addColumn('actor_name', 'text').execute();
      await db
        .updateTable('audit_log')
        .set({ actor_kind: 'anonymous' })
        .where('actor_id', 'is', null)
        .where('actor_email', 'is', null)
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('audit_log').dropColumn('actor_name').execute();
      await db.schema.alterTable('audit_log').dropColumn('actor_kind').execute();
    },
  };
}
