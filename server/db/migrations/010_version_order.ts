import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../dialect';

/**
 * Versions are listed newest first by semantic version, a page at a time, so the order is decided in
 * SQL (docs/decisions/037): major, minor and patch integers and a pre-release key that compares as
 * semver's rule 11 does (server/modules/catalogue/semver-order.ts), filled here for existing rows, and
 * an index (product_key, major, minor, patch, pre_release_key, id) that a product's list reads
 * backwards. PostgreSQL keeps the key in the "C" collation: the database's locale would otherwise
 * compare it by language rules, not bytes.
 */
export function versionOrderMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const column of ['major', 'minor', 'patch']) {
        await sql`alter table versions add column ${sql.ref(column)} bigint not null default 0`.execute(db);
      }
      const collate = dialect === 'postgres' ? sql` collate "C"` : sql``;
      await sql`alter table versions add column pre_release_key text${collate} not null default '2'`.execute(db);
      const rows = await sql<{ id: number; sem_ver: string }>`select id, sem_ver from versions`.execute(db);
      for (const row of rows.rows) {
        const order = frozenOrderOf(row.sem_ver);
        await sql`update versions set major = ${order.major}, minor = ${order.minor}, patch = ${order.patch}, pre_release_key = ${order.preReleaseKey} where id = ${row.id}`.execute(
          db,
        );
      }
      await db.schema
        .createIndex('versions_product_key_order_idx')
        .on('versions')
        .columns(['product_key', 'major', 'minor', 'patch', 'pre_release_key', 'id'])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('versions_product_key_order_idx').ifExists().execute();
      for (const column of ['pre_release_key', 'patch', 'minor', 'major']) {
        await db.schema.alterTable('versions').dropColumn(column).execute();
      }
    },
  };
}

/** Semantic Versioning 2.0's own expression: major, minor, patch, pre-release, build. */
const SEMVER_2 =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/**
 * The order columns as this migration wrote them, frozen here (decision 059): the catalogue's
 * `orderOf` may change, and a migration that already ran must not change with it. The same rules
 * as semver-order.ts had when the migration was written; its test compares the two.
 */
export function frozenOrderOf(semVer: string): { major: number; minor: number; patch: number; preReleaseKey: string } {
  const match = SEMVER_2.exec(semVer);
  const [major, minor, patch] = (match ?? []).slice(1, 4).map(Number);
  if (!match || ![major, minor, patch].every(Number.isSafeInteger)) {
    throw new Error(`Not a semantic version: ${semVer}`);
  }
  const preReleaseKey =
    match[4] === undefined
      ? '2'
      : match[4]
          .split('.')
          .map((part) => (/^\d+$/.test(part) ? `0${part.length.toString().padStart(3, '0')}${part}` : `1${part}`))
          .join(' ');
  return { major, minor, patch, preReleaseKey };
}
