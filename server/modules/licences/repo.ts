import type { Insertable, Updateable } from 'kysely';
import { ACCESS_LEVELS, VISIBLE_VERSION_TYPES } from '../../../common/domain';
import { type DB, nowIso } from '../../db';
import { preparedQuery } from '../../db/prepared';
import type { CustomizationsTable, LicencesTable } from '../../db/schema';
import { countUpTo, isPostgres } from '../../db/search';
import type { CustomerScope } from '../../scope';
import { memberCustomerIds } from '../members/repo';

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

/**
 * A licence with what the API shows of its product, and the date of its latest download (one probe
 * of the downloads (licence_id, created_at) index).
 */
function licenceQuery(db: DB) {
  return db
    .selectFrom('licences')
    .innerJoin('products', 'products.key', 'licences.productKey')
    .select((eb) => [
      'licences.id',
      'licences.customerId',
      'licences.productKey',
      'products.name as productName',
      'products.isSaas',
      'products.customizationType',
      'licences.hasEntityResolution',
      'licences.accessLevel',
      'licences.startDate',
      'licences.endDate',
      'licences.data',
      'licences.downloadSecret',
      'licences.customizationId',
      eb
        .selectFrom('downloads')
        .select((d) => d.fn.max('downloads.createdAt').as('latest'))
        .whereRef('downloads.licenceId', '=', 'licences.id')
        .as('latestDownload'),
      // the latest release date first, from the (product_key, published, release_date) index read
      // backwards, stopping at the first version this licence sees that has files (migration 033):
      // max() would read every version of the product (decision 089)
      eb
        .selectFrom('versions')
        .select('versions.releaseDate as latest')
        .whereRef('versions.productKey', '=', 'licences.productKey')
        .where('versions.published', '=', 1)
        .where('versions.releaseDate', 'is not', null)
        .where((v) =>
          v.or(
            ACCESS_LEVELS.map((level) =>
              v.and([
                v('licences.accessLevel', '=', level),
                v('versions.type', 'in', [...VISIBLE_VERSION_TYPES[level]]),
              ]),
            ),
          ),
        )
        .where((v) =>
          v.exists(
            v.selectFrom('artifacts').select('artifacts.id').whereRef('artifacts.versionId', '=', 'versions.id'),
          ),
        )
        .orderBy('versions.releaseDate', 'desc')
        .limit(1)
        .as('latestFilesReleased'),
    ]);
}

export type LicenceRow = NonNullable<Awaited<ReturnType<typeof findLicence>>>;

const licenceById = preparedQuery<{ id: number }>()((db: DB, param) =>
  licenceQuery(db).where('licences.id', '=', param('id')),
);

export function findLicence(db: DB, id: number) {
  return licenceById.first(db, { id });
}

/**
 * The licence whose download secret this is (the secret download URL): through the unique index on
 * the secret. A rotated secret finds nothing.
 */
const licenceBySecret = preparedQuery<{ secret: string }>()((db: DB, param) =>
  licenceQuery(db).where('licences.downloadSecret', '=', param('secret')),
);

export function findLicenceBySecret(db: DB, secret: string) {
  return licenceBySecret.first(db, { secret });
}

/** A customer's licences by product name, one page of them, with their number (one per product: few). */
const licencesPage = preparedQuery<{ customerId: number; length: number; offset: number }>()((db: DB, param) =>
  licenceQuery(db)
    .where('licences.customerId', '=', param('customerId'))
    .orderBy('products.name')
    .orderBy('licences.id')
    .limit(param('length'))
    .offset(param('offset')),
);
const licencesCount = preparedQuery<{ customerId: number }>()((db: DB, param) =>
  db
    .selectFrom('licences')
    .where('customerId', '=', param('customerId'))
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('n')),
);

export async function listLicences(db: DB, customerId: number, page: { offset: number; length: number }) {
  const [rows, counted] = await Promise.all([
    licencesPage(db, { customerId, length: page.length, offset: page.offset }),
    licencesCount.first(db, { customerId }),
  ]);
  return { rows, total: Number(counted?.n ?? 0) };
}

/** The id of the customer's licence of the product, if it holds one. */
export async function findLicenceIdOf(db: DB, customerId: number, productKey: string) {
  const row = await db
    .selectFrom('licences')
    .select('id')
    .where('customerId', '=', customerId)
    .where('productKey', '=', productKey)
    .executeTakeFirst();
  return row?.id;
}

/**
 * The stored values a renewal changes, locked until the transaction ends on PostgreSQL (SQLite
 * serialises writing transactions), so that the audit entry's "from" is the value replaced.
 */
export function lockLicence(db: DB, id: number) {
  return db
    .selectFrom('licences')
    .select(['id', 'customerId', 'startDate', 'endDate', 'accessLevel', 'data', 'hasEntityResolution'])
    .where('id', '=', id)
    .$if(isPostgres(db), (q) => q.forUpdate())
    .executeTakeFirst();
}

export async function updateLicence(
  db: DB,
  id: number,
  values: Omit<Updateable<LicencesTable>, 'id' | 'customerId' | 'productKey' | 'createdAt' | 'updatedAt'>,
) {
  const result = await db
    .updateTable('licences')
    .set({ ...values, updatedAt: nowIso() })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The products the customer holds no licence of, by name (the licence modal's choice). */
export function listLicensableProducts(db: DB, customerId: number) {
  return db
    .selectFrom('products')
    .select(['key', 'name', 'isSaas', 'customizationType'])
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('licences')
            .select('licences.id')
            .whereRef('licences.productKey', '=', 'products.key')
            .where('licences.customerId', '=', customerId),
        ),
      ),
    )
    .orderBy('name')
    .orderBy('key')
    .execute();
}

export function findProduct(db: DB, key: string) {
  return db.selectFrom('products').select(['key', 'name']).where('key', '=', key).executeTakeFirst();
}

/**
 * Licences ending between `from` and `to` (calendar days, both included), soonest first, of the
 * customers in scope; one page, with their number counted up to `cap` (decision 013). Every
 * customer's are read in (end_date, id) index order; a member's through (customer_id, end_date).
 */
export async function listEndingLicences(
  db: DB,
  scope: CustomerScope,
  range: { from: string; to: string },
  page: { offset: number; length: number; cap: number },
) {
  if ('none' in scope) return { rows: [], total: 0, capped: false };
  let query = db
    .selectFrom('licences')
    .where('licences.endDate', '>=', range.from)
    .where('licences.endDate', '<=', range.to);
  if ('memberId' in scope) query = query.where('licences.customerId', 'in', memberCustomerIds(db, scope));
  const [rows, count] = await Promise.all([
    query
      .innerJoin('customers', 'customers.id', 'licences.customerId')
      .innerJoin('products', 'products.key', 'licences.productKey')
      .select([
        'licences.id',
        'licences.customerId',
        'customers.name as customerName',
        'licences.productKey',
        'products.name as productName',
        'licences.endDate',
      ])
      .orderBy('licences.endDate')
      .orderBy('licences.id')
      .limit(page.length)
      .offset(page.offset)
      .execute(),
    countUpTo(db, query, page.cap),
  ]);
  return { rows, ...count };
}

/** The customer a licence belongs to, for the access rule of the routes that name it. */
export async function customerOfLicence(db: DB, id: number) {
  const row = await db.selectFrom('licences').select('customerId').where('id', '=', id).executeTakeFirst();
  return row?.customerId ?? null;
}

/** The customer of each of these licences that exists, by licence id (a notification's link). */
export async function customersOfLicences(db: DB, ids: readonly number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('licences')
    .select(['id', 'customerId'])
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((row) => [row.id, row.customerId]));
}
