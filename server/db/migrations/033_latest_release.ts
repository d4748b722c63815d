import type { Kysely, Migration } from 'kysely';

/**
 * A licence shows the release date of the latest version it may download that has files
 * (server/modules/licences/repo.ts, `latestFilesReleased`): read from this index backwards, the
 * product's published versions newest first, it stops at the first one the licence's access level
 * sees, instead of reading every version of the product for a max() (docs/decisions/089). The same on
 * both databases.
 */
export function latestReleaseMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createIndex('versions_product_published_release_idx')
        .on('versions')
        .columns(['product_key', 'published', 'release_date'])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('versions_product_published_release_idx').ifExists().execute();
    },
  };
}
