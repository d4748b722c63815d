import {
  CATALOGUE_ERRORS,
  type CreateProductBody,
  type CreateVersionBody,
  type Product,
  type ProductList,
  type UpdateProductBody,
  type UpdateVersionBody,
  type Version,
  type VersionList,
  type VersionListQuery,
} from '../../../common/api/catalogue';
import { ERROR_CODES } from '../../../common/api/errors';
import { ACCESS_LEVELS, type AccessLevel, VISIBLE_VERSION_TYPES } from '../../../common/domain';
import { utcToday } from '../../../common/licence-status';
import type { NotificationMessageKey } from '../../../common/notifications';
import { type Actor, type SessionUser, signedInUser } from '../../actor';
import type { AppContext } from '../../context';
import { type DB, isUniqueViolation } from '../../db';
import { fieldDetail, forbidden, HttpError, notFound } from '../../http-error';
import { renderMarkdown } from '../../markdown';
import { invalidField } from '../../validation';
import { callerOf, type CustomerAccess } from '../../policy';
import { auditActorOf, insertAuditEntry } from '../audit/repo';
import { typesOpenTo } from '../downloads/policy';
import { emitNotification } from '../notifications/events';
import { emitWebhook } from '../webhooks/deliver';
import { mayListEveryVersion, productAbilities, versionAbilities } from './policy';
import * as repo from './repo';
import { versionOrder } from './semver-order';

export const PRODUCT_NOT_FOUND = 'Product not found';
const VERSION_NOT_FOUND = 'Version not found';
export const PRODUCT_EXISTS = 'A product with this key already exists';
export const VERSION_EXISTS = 'This product already has a version with this semVer';
export const PUBLISHED_LOCKED = 'A published version keeps its title and semVer: only its description and type change';
/** the message key of the notification members get when a version they may download is published */
export const NEW_VERSION_MESSAGE = 'notification.newVersion' satisfies NotificationMessageKey;

/** A product as the API gives it, with what the caller may do with it (`can`). */
const toApiProduct = (row: repo.ProductRow, caller: SessionUser | null): Product => ({
  key: row.key,
  name: row.name,
  description: row.description,
  customizationType: row.customizationType,
  isSaas: row.isSaas === 1,
  can: productAbilities(caller),
});

async function productOf(db: DB, key: string) {
  const row = await repo.findProduct(db, key);
  if (!row) throw notFound(PRODUCT_NOT_FOUND);
  return row;
}

export async function listProducts(ctx: AppContext, actor: Actor): Promise<ProductList> {
  const caller = callerOf(actor);
  return { data: (await repo.listProducts(ctx.db)).map((row) => toApiProduct(row, caller)) };
}

export async function getProduct(ctx: AppContext, actor: Actor, input: { key: string }): Promise<Product> {
  return toApiProduct(await productOf(ctx.db, input.key), callerOf(actor));
}

const productExists = () =>
  new HttpError(409, ERROR_CODES.productExists, PRODUCT_EXISTS, fieldDetail('key', ERROR_CODES.productExists));

/**
 * Spec section 5: key, name, description and customization type; the key is unique (409), also in a
 * race. The product and its `createProduct` entry (of no customer) are written together.
 */
export async function createProduct(ctx: AppContext, actor: Actor, body: CreateProductBody): Promise<Product> {
  const { db } = ctx;
  if (await repo.findProduct(db, body.key)) throw productExists();
  try {
    await db.transaction().execute(async (trx) => {
      await repo.insertProduct(trx, { ...body, isSaas: body.isSaas ? 1 : 0 });
      await insertAuditEntry(trx, {
        customerId: null,
        by: auditActorOf(actor),
        action: 'createProduct',
        data: { productKey: body.key, productName: body.name },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw productExists();
    throw error;
  }
  return getProduct(ctx, actor, { key: body.key });
}

/** The product's fields that change, with an `updateProduct` entry of what was asked. */
export async function updateProduct(
  ctx: AppContext,
  actor: Actor,
  input: { key: string; body: UpdateProductBody },
): Promise<Product> {
  const { db } = ctx;
  const { key, body } = input;
  const product = await productOf(db, key);
  const { isSaas, ...rest } = body;
  await db.transaction().execute(async (trx) => {
    await repo.updateProduct(trx, key, { ...rest, ...(isSaas === undefined ? {} : { isSaas: isSaas ? 1 : 0 }) });
    await insertAuditEntry(trx, {
      customerId: null,
      by: auditActorOf(actor),
      action: 'updateProduct',
      data: { productKey: key, productName: body.name ?? product.name, changes: body },
    });
  });
  return getProduct(ctx, actor, input);
}

/**
 * Versions as the API gives them: with their artifacts, their description rendered and what the
 * caller may do with each (`can`).
 */
async function toApiVersions(
  db: DB,
  rows: repo.VersionRow[],
  caller: SessionUser | null,
  latestFor: (row: repo.VersionRow, index: number) => AccessLevel[],
): Promise<Version[]> {
  const artifacts = await repo.artifactsOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row, index) => {
    const published = row.published === 1;
    return {
      id: row.id,
      productKey: row.productKey,
      productName: row.productName,
      title: row.title,
      type: row.type,
      semVer: row.semVer,
      description: row.description,
      descriptionHtml: renderMarkdown(row.description),
      releaseDate: row.releaseDate,
      published,
      artifacts: artifacts
        .filter((artifact) => artifact.versionId === row.id)
        .map(({ versionId: _versionId, ...artifact }) => ({ ...artifact, size: Number(artifact.size) })),
      latestFor: latestFor(row, index),
      can: versionAbilities(caller, { published }),
    };
  });
}

/**
 * `GET /api/products/{key}/versions`. With a customer (its role there holds viewLicences, checked by
 * the route): the published versions its licence of the product allows, none without a licence (an
 * empty list, docs/decisions/037). Without: every version, for those who see the products.
 */
export async function listVersions(
  ctx: AppContext,
  actor: Actor,
  input: { productKey: string; customerAccess: CustomerAccess | null; query: VersionListQuery },
): Promise<VersionList> {
  const { db } = ctx;
  const { customerAccess, query, productKey } = input;
  const caller = signedInUser(actor).user;
  if (!customerAccess && !mayListEveryVersion(caller)) throw forbidden();
  await productOf(db, productKey);
  const page = { offset: query.pageOffset, length: query.pageLength };
  const since = query.since === undefined ? undefined : sinceOrder(query.since);
  if (customerAccess) {
    const licence = await repo.licenceOfProduct(db, customerAccess.customer.id, productKey);
    if (!licence) return { data: [], offset: query.pageOffset, total: 0, totalCapped: false };
    const filter = { productKey, publishedTypes: typesOpenTo(licence), since };
    const { rows, total } = await repo.listVersions(db, filter, page);
    // the list is what the licence allows, newest first: its first row is the licence's latest
    const latestFor = (_row: repo.VersionRow, index: number) =>
      query.pageOffset === 0 && index === 0 ? [licence.accessLevel] : [];
    const data = await toApiVersions(db, rows, caller, latestFor);
    return { data, offset: query.pageOffset, total, totalCapped: false };
  }
  const [{ rows, total }, latest] = await Promise.all([
    repo.listVersions(db, { productKey, since }, page),
    latestByAccessLevel(db, productKey),
  ]);
  const data = await toApiVersions(db, rows, caller, latestOf(latest));
  return { data, offset: query.pageOffset, total, totalCapped: false };
}

/** The newest published version each access level allows (staff views: no licence decides). */
async function latestByAccessLevel(db: DB, productKey: string): Promise<Map<AccessLevel, number | undefined>> {
  const ids = await Promise.all(
    ACCESS_LEVELS.map((level) => repo.newestPublished(db, productKey, VISIBLE_VERSION_TYPES[level])),
  );
  return new Map(ACCESS_LEVELS.map((level, i) => [level, ids[i]]));
}

const latestOf = (latest: Map<AccessLevel, number | undefined>) => (row: repo.VersionRow) =>
  ACCESS_LEVELS.filter((level) => latest.get(level) === row.id);

/** The order of `since`: one the contract's expression accepts but semver cannot order is a 400. */
function sinceOrder(semVer: string) {
  const order = versionOrder(semVer);
  if (!order) throw invalidField('since', CATALOGUE_ERRORS.semVer);
  return order;
}

export async function getVersion(ctx: AppContext, actor: Actor, input: { id: number }): Promise<Version> {
  const row = await repo.findVersion(ctx.db, input.id);
  if (!row) throw notFound(VERSION_NOT_FOUND);
  const latest = await latestByAccessLevel(ctx.db, row.productKey);
  const [version] = await toApiVersions(ctx.db, [row], callerOf(actor), latestOf(latest));
  return version;
}

const versionExists = () =>
  new HttpError(409, ERROR_CODES.versionExists, VERSION_EXISTS, fieldDetail('semVer', ERROR_CODES.versionExists));

/** A semVer the contract's expression accepts but semver cannot order (a part beyond 2^53). */
function checkOrderable(semVer: string) {
  if (!versionOrder(semVer)) {
    throw invalidField('semVer', CATALOGUE_ERRORS.semVer);
  }
}

/**
 * Spec section 5: a new version is unpublished; its semVer is unique per product (409), also in a
 * race. Written with its `createVersion` entry.
 */
export async function createVersion(
  ctx: AppContext,
  actor: Actor,
  input: { productKey: string; body: CreateVersionBody },
): Promise<Version> {
  const { db } = ctx;
  const { productKey, body } = input;
  checkOrderable(body.semVer);
  await productOf(db, productKey);
  let id: number;
  try {
    id = await db.transaction().execute(async (trx) => {
      const created = await repo.insertVersion(trx, {
        productKey,
        title: body.title,
        type: body.type,
        semVer: body.semVer,
        description: body.description,
        releaseDate: null,
        published: 0,
      });
      await insertAuditEntry(trx, {
        customerId: null,
        by: auditActorOf(actor),
        action: 'createVersion',
        data: { productKey, versionId: created.id, productVersion: body.semVer, title: body.title, type: body.type },
      });
      return created.id;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw versionExists();
    throw error;
  }
  return getVersion(ctx, actor, { id });
}

const lockedByPublication = (message: string) => new HttpError(409, ERROR_CODES.versionPublished, message);

/**
 * `PATCH /api/versions/{id}` (spec section 4): an unpublished version takes every field, and
 * `published: true`, which is final and dates the release today (UTC). A published version takes
 * only description and type (`published: false` never passes the contract). Publishing tells the members who asked for it, in the same transaction.
 * The change writes an `updateVersion` entry, a publication a `publishVersion` one.
 */
export async function updateVersion(
  ctx: AppContext,
  actor: Actor,
  input: { id: number; body: UpdateVersionBody },
): Promise<Version> {
  const { db } = ctx;
  const { id, body } = input;
  if (body.semVer !== undefined) checkOrderable(body.semVer);
  try {
    await db.transaction().execute(async (trx) => {
      const current = await repo.lockVersion(trx, id);
      if (!current) throw notFound(VERSION_NOT_FOUND);
      const wasPublished = current.published === 1;
      if (wasPublished) {
        const changes = (field: 'title' | 'semVer') => body[field] !== undefined;
        if (changes('title') || changes('semVer')) throw lockedByPublication(PUBLISHED_LOCKED);
      }
      const publishing = body.published === true && !wasPublished;
      const today = utcToday();
      await repo.updateVersion(trx, id, {
        title: body.title,
        type: body.type,
        semVer: body.semVer,
        description: body.description,
        ...(publishing ? { published: 1, releaseDate: today } : {}),
      });
      // the members whose licence allows it hear of it once this commits (docs/notifications.md)
      if (publishing) {
        await emitNotification(ctx, trx, { type: 'newVersion', versionId: id });
        await emitWebhook(ctx, trx, 'version.published', {
          versionId: id,
          productKey: current.productKey,
          semVer: body.semVer ?? current.semVer,
          releaseDate: today,
        });
      }
      const { published: _published, ...changes } = body;
      await insertAuditEntry(trx, {
        customerId: null,
        by: auditActorOf(actor),
        action: publishing ? 'publishVersion' : 'updateVersion',
        data: {
          productKey: current.productKey,
          versionId: id,
          productVersion: body.semVer ?? current.semVer,
          changes,
          ...(publishing ? { releaseDate: today } : {}),
        },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw versionExists();
    throw error;
  }
  return getVersion(ctx, actor, { id });
}
