import { type Kysely, type Migration, sql } from 'kysely';
import { PLATFORMS } from '../../../common/domain';

/**
 * A download records the platform it served (docs/decisions/036): the artifact row can be replaced or
 * removed, and the download analytics count per platform without joining it. Rows written before
 * have none. The CHECK is the one constraints.ts declares for the column, named as it names it.
 */
export function downloadPlatformMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      const allowed = sql.join(PLATFORMS.map((p) => sql.lit(p)));
      await sql`alter table downloads add column platform text constraint "downloads_platform_check" check (platform in (${allowed}))`.execute(
        db,
      );
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('downloads').dropColumn('platform').execute();
    },
  };
}
