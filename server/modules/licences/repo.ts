import type { Insertable } from 'kysely';
import { type DB, nowIso } from '../../db';
import type { CustomizationsTable, LicencesTable } from '../../db/schema';

/** SQL of licences and customizations. */

type New<T> = Omit<Insertable<T>, 'id' | 'createdAt' | 'updatedAt'> & { createdAt?: string };

export async function insertLicence(db: DB, licence: New<LicencesTable>) {
  const now = licence.createdAt ?? nowIso();
  return db
    .insertInto('licences')
    .values({ ...licence, createdAt: now, updatedAt: now })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export async function insertCustomization(db: DB, customization: New<CustomizationsTable>) {
  const now = customization.createdAt ?? nowIso();
  return db
    .insertInto('customizations')
    .values({ ...customization, createdAt: now, updatedAt: now })
    .returning('id')
    .executeTakeFirstOrThrow();
}
