import { type Insertable, type SelectQueryBuilder, sql, type Updateable } from 'kysely';
import type { VersionType } from '../../../common/domain';
import { type DB, nowIso } from '../../db';
import { preparedQuery } from '../../db/prepared';
import type { ArtifactsTable, Database, ProductsTable, VersionsTable } from '../../db/schema';
import { isPostgres } from '../../db/search';
import { orderOf, type VersionOrder } from './semver-order';

/** SQL of the catalogue: products, their versions and the versions' artifacts. */

type New<T> = Omit<Insertable<T>, 'id' | 'createdAt' | 'updatedAt'> & { createdAt?: string };
type OrderColumns = 'major' | 'minor' | 'patch' | 'preReleaseKey';

export async function insertProduct(db: DB, product: New<ProductsTable>) {
  const now = product.createdAt ?? nowIso();
  await db
    .insertInto('products')
    .values({ ...product, createdAt: now, updatedAt: now })
    .execute();
  return { key: product.key };
}

/** Every insert fills the order columns from semVer, so that no version escapes the listing order. */
export async function insertVersion(db: DB, version: Omit<New<VersionsTable>, OrderColumns>) {
  const now = version.createdAt ?? nowIso();
  return db
    .insertInto('versions')
    .values({ ...version, ...orderOf(version.semVer), createdAt: now, updatedAt: now })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export async function insertArtifact(db: DB, artifact: New<ArtifactsTable>) {
  return db
    .insertInto('artifacts')
    .values({ ...artifact, createdAt: artifact.createdAt ?? nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();
}

const PRODUCT_COLUMNS = ['key', 'name', 'description', 'customizationType', 'isSaas'] as const;

export function listProducts(db: DB) {
  return db.selectFrom('products').select(PRODUCT_COLUMNS).orderBy('name').orderBy('key').execute();
}

const productByKey = preparedQuery<{ key: string }>()((db: DB, param) =>
  db.selectFrom('products').select(PRODUCT_COLUMNS).where('key', '=', param('key')),
);

export function findProduct(db: DB, key: string) {
  return productByKey.first(db, { key });
}

export type ProductRow = NonNullable<Awaited<ReturnType<typeof findProduct>>>;

export async function updateProduct(
  db: DB,
  key: string,
  values: Omit<Updateable<ProductsTable>, 'key' | 'createdAt' | 'updatedAt'>,
) {
  await db
    .updateTable('products')
    .set({ ...values, updatedAt: nowIso() })
    .where('key', '=', key)
    .execute();
}

/**
 * Versions newest first in semantic-version order (docs/decisions/037), the newest row of equals
 * first: for any query that reads the versions table.
 */
export function newestVersionFirst<Q extends SelectQueryBuilder<Database, 'versions', object>>(query: Q): Q {
  return ['major', 'minor', 'patch', 'preReleaseKey', 'id'].reduce(
    (ordered, column) => ordered.orderBy(sql.ref(`versions.${column}`), 'desc'),
    query as SelectQueryBuilder<Database, 'versions', object>,
  ) as Q;
}

function versionQuery(db: DB) {
  return db
    .selectFrom('versions')
    .innerJoin('products', 'products.key', 'versions.productKey')
    .select([
      'versions.id',
      'versions.productKey',
      'products.name as productName',
      'versions.title',
      'versions.type',
      'versions.semVer',
      'versions.description',
      'versions.releaseDate',
      'versions.published',
    ]);
}

export type VersionRow = NonNullable<Awaited<ReturnType<typeof findVersion>>>;

export function findVersion(db: DB, id: number) {
  return versionQuery(db).where('versions.id', '=', id).executeTakeFirst();
}

/** Which versions of a product a list shows: every one, or the published ones of some types. */
interface VersionFilter {
  productKey: string;
  /** only published versions of these types (a customer's view); every version when absent */
  publishedTypes?: readonly VersionType[];
  /** only the versions above this one in the order (its order columns, from semver-order.ts) */
  since?: VersionOrder;
}

/**
 * One page of a product's versions, newest first by semantic version (read backwards from
 * versions_product_key_order_idx), with their number.
 */
export async function listVersions(db: DB, filter: VersionFilter, page: { offset: number; length: number }) {
  const { page: pageOf, count } = versionQueries(filter.publishedTypes ?? null, filter.since !== undefined);
  const params = { productKey: filter.productKey, ...(filter.since ?? NO_SINCE) };
  const [rows, counted] = await Promise.all([
    pageOf(db, { ...params, length: page.length, offset: page.offset }),
    count.first(db, params),
  ]);
  return { rows, total: Number(counted?.n ?? 0) };
}

/**
 * The id of the newest published version of a product among some types (the newest an access level
 * allows), if any: the first row of the customer's list, one index probe.
 */
export async function newestPublished(db: DB, productKey: string, types: readonly VersionType[]) {
  const [row] = await versionQueries(types, false).page(db, { productKey, ...NO_SINCE, length: 1, offset: 0 });
  return row?.id;
}

const NO_SINCE: VersionOrder = { major: 0, minor: 0, patch: 0, preReleaseKey: '' };
// a type, not VersionOrder's interface: a prepared query's parameters are a record
type VersionQueryParams = { productKey: string; major: number; minor: number; patch: number; preReleaseKey: string };

/**
 * The page and count queries of a version list, compiled once per shape: all versions, or the
 * published ones of an access level's types, each with or without a lower bound (server/db/prepared.ts).
 */
const versionQueriesByShape = new Map<string, ReturnType<typeof buildVersionQueries>>();
function versionQueries(publishedTypes: readonly VersionType[] | null, since: boolean) {
  const shape = `${publishedTypes ? publishedTypes.join(',') : '*'}${since ? '>' : ''}`;
  let queries = versionQueriesByShape.get(shape);
  if (!queries) {
    queries = buildVersionQueries(publishedTypes, since);
    versionQueriesByShape.set(shape, queries);
  }
  return queries;
}

function buildVersionQueries(publishedTypes: readonly VersionType[] | null, since: boolean) {
  const scoped = <Q extends SelectQueryBuilder<Database, 'versions', any>>(
    query: Q,
    param: <K extends keyof VersionQueryParams>(name: K) => VersionQueryParams[K],
  ): Q => {
    let scopedQuery = query.where('versions.productKey', '=', param('productKey')) as Q;
    if (publishedTypes) {
      scopedQuery = scopedQuery
        .where('versions.published', '=', 1)
        .where('versions.type', 'in', [...publishedTypes]) as Q;
    }
    if (since) {
      // a row value comparison: the order of the four columns, as the list reads them
      scopedQuery = scopedQuery.where((eb) =>
        eb(
          eb.refTuple('versions.major', 'versions.minor', 'versions.patch', 'versions.preReleaseKey'),
          '>',
          eb.tuple(param('major'), param('minor'), param('patch'), param('preReleaseKey')),
        ),
      ) as Q;
    }
    return scopedQuery;
  };
  return {
    page: preparedQuery<VersionQueryParams & { length: number; offset: number }>()((db: DB, param) =>
      newestVersionFirst(scoped(versionQuery(db), param))
        .limit(param('length'))
        .offset(param('offset')),
    ),
    count: preparedQuery<VersionQueryParams>()((db: DB, param) =>
      scoped(db.selectFrom('versions'), param).select((eb) => eb.fn.countAll<number | string | bigint>().as('n')),
    ),
  };
}

/** The artifacts of some versions, by platform: compiled once per number of versions asked for. */
const artifactsByCount = new Map<number, ReturnType<typeof buildArtifactsOf>>();
function buildArtifactsOf(count: number) {
  return preparedQuery<Record<string, number>>()((db: DB, param) =>
    db
      .selectFrom('artifacts')
      .select(['id', 'versionId', 'platform', 'fileName', 'size', 'sha256', 'createdAt'])
      .where(
        'versionId',
        'in',
        Array.from({ length: count }, (_, i) => param(`v${i}`)),
      )
      .orderBy('platform'),
  );
}

export function artifactsOf(db: DB, versionIds: number[]) {
  if (versionIds.length === 0) return Promise.resolve([]);
  let query = artifactsByCount.get(versionIds.length);
  if (!query) {
    query = buildArtifactsOf(versionIds.length);
    if (versionIds.length <= 100) artifactsByCount.set(versionIds.length, query);
  }
  return query(db, Object.fromEntries(versionIds.map((id, i) => [`v${i}`, id])));
}

/** A version's row locked until the transaction ends on PostgreSQL (SQLite serialises writers). */
export function lockVersion(db: DB, id: number) {
  return db
    .selectFrom('versions')
    .select(['id', 'productKey', 'semVer', 'published'])
    .where('id', '=', id)
    .$if(isPostgres(db), (q) => q.forUpdate())
    .executeTakeFirst();
}

/** Changes a version; a new semVer moves it in the order. */
export async function updateVersion(
  db: DB,
  id: number,
  values: Pick<Updateable<VersionsTable>, 'title' | 'type' | 'semVer' | 'description' | 'published' | 'releaseDate'>,
) {
  await db
    .updateTable('versions')
    .set({ ...values, ...(values.semVer ? orderOf(values.semVer) : {}), updatedAt: nowIso() })
    .where('id', '=', id)
    .execute();
}

/** The licence a customer holds of a product, if any: its access level decides what it sees. */
const licenceOfCustomerProduct = preparedQuery<{ customerId: number; productKey: string }>()((db: DB, param) =>
  db
    .selectFrom('licences')
    .select(['id', 'accessLevel', 'endDate'])
    .where('customerId', '=', param('customerId'))
    .where('productKey', '=', param('productKey')),
);

export function licenceOfProduct(db: DB, customerId: number, productKey: string) {
  return licenceOfCustomerProduct.first(db, { customerId, productKey });
}
