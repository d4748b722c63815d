import type { Kysely, Migration } from 'kysely';

/**
 * The OpenID Connect provider's state is kept under the SHA-256 of its ids, its payloads without
 * them (docs/decisions/083): the rows stored before, under the token values themselves, go. Users
 * sign in again at the relying parties; a refresh token issued before no longer works.
 */
export function oidcStateHashedMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.deleteFrom('oidc_models').execute();
    },
    async down(db: Kysely<any>) {
      // rows kept under hashed ids are of no use to the older adapter
      await db.deleteFrom('oidc_models').execute();
    },
  };
}
