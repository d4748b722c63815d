import crypto from 'node:crypto';
import { ERROR_CODES, type ErrorCode } from '../../../common/api/errors';
import {
  type CreateLicenceBody,
  type EndingLicenceList,
  type EndingLicenceQuery,
  LICENCE_ERRORS,
  type LicensableProductList,
  type Licence,
  type LicenceData,
  type LicenceList,
  type LicenceListQuery,
  type UpdateLicenceBody,
} from '../../../common/api/licences';
import { addDays, licenceStatus, utcToday } from '../../../common/licence-status';
import { countCap } from '../../../common/pagination';
import { type Actor, signedInUser } from '../../actor';
import type { AppContext } from '../../context';
import { emitNotification } from '../notifications/events';
import { emitWebhook } from '../webhooks/deliver';
import { type DB, isUniqueViolation } from '../../db';
import { fieldDetail, HttpError, notFound } from '../../http-error';
import type { CustomerAccess } from '../../policy';
import { customerScopeOf } from '../../scope';
import { invalidField } from '../../validation';
import { auditActorOf, insertAuditEntry } from '../audit/repo';
import { licenceAbilities } from './policy';
import * as repo from './repo';

const LICENCE_NOT_FOUND = 'License not found';
export const UNKNOWN_PRODUCT = 'This product does not exist';
export const LICENCE_EXISTS = 'This customer already has a license for this product: renew it instead';

/**
 * A licence's download secret: 32 random bytes (256 bits) in base64url, 43 characters. It is the
 * credential of the secret download URL, stored as it is (the portal shows it to those who may
 * download), unique in the database; rotating it replaces it at once.
 */
function newDownloadSecret(): string {
  return crypto.randomBytes(32).toString('base64url');
}

function parseData(raw: string): LicenceData {
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as LicenceData) : {};
  } catch {
    return {};
  }
}

/**
 * A licence as the caller may see it: the download secret only for roles that download, the latest
 * download only for roles that see a licence's details (spec section 2, common/permissions.ts).
 */
function toApiLicence(row: repo.LicenceRow, access: Pick<CustomerAccess, 'role'>, today = utcToday()): Licence {
  const can = licenceAbilities(access, row);
  return {
    id: row.id,
    customerId: row.customerId,
    productKey: row.productKey,
    productName: row.productName,
    isSaas: row.isSaas === 1,
    customizationType: row.customizationType,
    hasEntityResolution: row.hasEntityResolution === 1,
    status: licenceStatus(row.endDate, today),
    startDate: row.startDate,
    endDate: row.endDate,
    accessLevel: row.accessLevel,
    data: parseData(row.data),
    downloadSecret: can.download ? row.downloadSecret : null,
    customizationId: row.customizationId,
    latestDownload: can.viewDetails ? (row.latestDownload ?? null) : null,
    latestFilesReleased: row.latestFilesReleased ?? null,
    can,
  };
}

/** A licence of the route's customer; 404 otherwise. */
async function licenceOf(db: DB, customerAccess: CustomerAccess, id: number) {
  const row = await repo.findLicence(db, id);
  if (!row || row.customerId !== customerAccess.customer.id) throw notFound(LICENCE_NOT_FOUND);
  return row;
}

const productRefusal = (status: number, code: ErrorCode, message: string) =>
  new HttpError(status, code, message, fieldDetail('productKey', code));

/** `GET /api/customers/{id}/licenses`: by product name, then id. */
export async function listLicences(
  ctx: AppContext,
  _actor: Actor,
  input: { customerAccess: CustomerAccess; query: LicenceListQuery },
): Promise<LicenceList> {
  const { customerAccess, query } = input;
  const { rows, total } = await repo.listLicences(ctx.db, customerAccess.customer.id, {
    offset: query.pageOffset,
    length: query.pageLength,
  });
  const today = utcToday();
  return {
    data: rows.map((row) => toApiLicence(row, customerAccess, today)),
    offset: query.pageOffset,
    total,
    totalCapped: false,
  };
}

export async function getLicence(
  ctx: AppContext,
  _actor: Actor,
  input: { customerAccess: CustomerAccess; id: number },
): Promise<Licence> {
  return toApiLicence(await licenceOf(ctx.db, input.customerAccess, input.id), input.customerAccess);
}

/**
 * Gives the route's customer a licence of a product (spec section 5). A customer holds one licence
 * per product (docs/decisions/031): a second one is refused (409), also when two requests race, by
 * the unique index. The licence and its audit entry (never the secret) are one transaction.
 */
export async function createLicence(
  ctx: AppContext,
  actor: Actor,
  input: { customerAccess: CustomerAccess; body: CreateLicenceBody },
): Promise<Licence> {
  signedInUser(actor);
  const { customerAccess, body } = input;
  const customerId = customerAccess.customer.id;
  const { db } = ctx;
  const product = await repo.findProduct(db, body.productKey);
  if (!product) throw productRefusal(400, ERROR_CODES.unknownProduct, UNKNOWN_PRODUCT);
  const exists = () => productRefusal(409, ERROR_CODES.licenceExists, LICENCE_EXISTS);
  if (await repo.findLicenceIdOf(db, customerId, product.key)) throw exists();
  try {
    return await db.transaction().execute(async (trx) => {
      const { id } = await repo.insertLicence(trx, {
        customerId,
        productKey: product.key,
        hasEntityResolution: body.hasEntityResolution ? 1 : 0,
        accessLevel: body.accessLevel,
        startDate: body.startDate,
        endDate: body.endDate,
        data: JSON.stringify(body.data),
        downloadSecret: newDownloadSecret(),
        customizationId: null,
      });
      await insertAuditEntry(trx, {
        customerId,
        by: auditActorOf(actor),
        action: 'createLicence',
        data: {
          licenceId: id,
          productKey: product.key,
          productName: product.name,
          accessLevel: body.accessLevel,
          startDate: body.startDate,
          endDate: body.endDate,
          hasEntityResolution: body.hasEntityResolution,
        },
      });
      // the customer's members who asked for it hear of it once this commits (docs/notifications.md)
      await emitNotification(ctx, trx, { type: 'newProductLicense', licenceId: id });
      await emitWebhook(ctx, trx, 'licence.created', {
        licenceId: id,
        customerId,
        productKey: product.key,
        accessLevel: body.accessLevel,
        startDate: body.startDate,
        endDate: body.endDate,
      });
      const row = await repo.findLicence(trx, id);
      if (!row) throw new Error('the new licence cannot be read back');
      return toApiLicence(row, customerAccess);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw exists();
    throw error;
  }
}

/**
 * Renews a licence (spec section 5, `PATCH /api/licenses/{id}`): a new end date, in the future and
 * after the stored start date, the access level and the data. The audit entry says what changed.
 */
export async function renewLicence(
  ctx: AppContext,
  actor: Actor,
  input: { customerAccess: CustomerAccess; id: number; body: UpdateLicenceBody },
): Promise<Licence> {
  signedInUser(actor);
  const { customerAccess, id, body } = input;
  return ctx.db.transaction().execute(async (trx) => {
    const stored = await repo.lockLicence(trx, id);
    if (!stored || stored.customerId !== customerAccess.customer.id) throw notFound(LICENCE_NOT_FOUND);
    if (body.endDate <= stored.startDate) {
      throw invalidField('endDate', LICENCE_ERRORS.endBeforeStart);
    }
    const hasEntityResolution =
      body.hasEntityResolution === undefined ? stored.hasEntityResolution : body.hasEntityResolution ? 1 : 0;
    const data = JSON.stringify(body.data);
    await repo.updateLicence(trx, id, {
      endDate: body.endDate,
      accessLevel: body.accessLevel,
      data,
      hasEntityResolution,
    });
    const row = await repo.findLicence(trx, id);
    if (!row) throw notFound(LICENCE_NOT_FOUND);
    const change = <T>(from: T, to: T) => (from === to ? {} : { from, to });
    const changes = Object.fromEntries(
      Object.entries({
        endDate: change(stored.endDate, body.endDate),
        accessLevel: change(stored.accessLevel, body.accessLevel),
        data: stored.data === data ? {} : { from: parseData(stored.data), to: body.data },
        hasEntityResolution: change(stored.hasEntityResolution === 1, hasEntityResolution === 1),
      }).filter(([, value]) => 'from' in value),
    );
    await insertAuditEntry(trx, {
      customerId: row.customerId,
      by: auditActorOf(actor),
      action: 'renewLicence',
      data: {
        licenceId: id,
        productKey: row.productKey,
        productName: row.productName,
        endDate: { from: stored.endDate, to: body.endDate },
        accessLevel: { from: stored.accessLevel, to: body.accessLevel },
        changes,
      },
    });
    await emitWebhook(ctx, trx, 'licence.renewed', {
      licenceId: id,
      customerId: row.customerId,
      productKey: row.productKey,
      endDate: { from: stored.endDate, to: body.endDate },
      accessLevel: { from: stored.accessLevel, to: body.accessLevel },
    });
    return toApiLicence(row, customerAccess);
  });
}

/** A new download secret: the old one stops working at once (the secret URL looks the licence up by it). */
export async function rotateDownloadSecret(
  ctx: AppContext,
  actor: Actor,
  input: { customerAccess: CustomerAccess; id: number },
): Promise<Licence> {
  signedInUser(actor);
  const { customerAccess, id } = input;
  return ctx.db.transaction().execute(async (trx) => {
    const stored = await licenceOf(trx, customerAccess, id);
    if (!(await repo.updateLicence(trx, id, { downloadSecret: newDownloadSecret() }))) {
      throw notFound(LICENCE_NOT_FOUND);
    }
    await insertAuditEntry(trx, {
      customerId: stored.customerId,
      by: auditActorOf(actor),
      action: 'rotateDownloadSecret',
      data: { licenceId: id, productKey: stored.productKey, productName: stored.productName },
    });
    const row = await repo.findLicence(trx, id);
    if (!row) throw notFound(LICENCE_NOT_FOUND);
    return toApiLicence(row, customerAccess);
  });
}

/** The products the route's customer holds no licence of, by name (the licence modal's choice). */
export async function listLicensableProducts(
  ctx: AppContext,
  _actor: Actor,
  input: { customerAccess: CustomerAccess },
): Promise<LicensableProductList> {
  const rows = await repo.listLicensableProducts(ctx.db, input.customerAccess.customer.id);
  return {
    data: rows.map((p) => ({
      key: p.key,
      name: p.name,
      isSaas: p.isSaas === 1,
      customizationType: p.customizationType,
    })),
  };
}

/**
 * The licences ending between today (the UTC day) and `days` from today, both included, soonest
 * first, of the customers where the caller may manage licences (docs/decisions/031): every customer
 * for admins and product managers, their own for account executives, none for the others (an empty
 * list: the call is valid, there is nothing for them).
 */
export async function listEndingLicences(
  ctx: AppContext,
  actor: Actor,
  input: { query: EndingLicenceQuery },
): Promise<EndingLicenceList> {
  const { query } = input;
  const scope = customerScopeOf(signedInUser(actor).user, 'manageLicences');
  const today = utcToday();
  const { rows, total, capped } = await repo.listEndingLicences(
    ctx.db,
    scope,
    { from: today, to: addDays(today, query.days) },
    { offset: query.pageOffset, length: query.pageLength, cap: countCap(query.pageOffset, query.pageLength) },
  );
  return {
    data: rows.map((row) => ({ ...row, status: licenceStatus(row.endDate, today) })),
    offset: query.pageOffset,
    total,
    totalCapped: capped,
  };
}
