import { isDeepStrictEqual } from 'node:util';
import type {
  ConfigProblem,
  ConfigValidation,
  CreateCustomizationBody,
  CustomConfig,
  Customization,
  CustomizationList,
  CustomizationListQuery,
  UpdateCustomizationBody,
  ValidateCustomizationBody,
} from '../../../common/api/customizations';
import type { Locale } from '../../../common/roles';
import { type Actor, signedInUser } from '../../actor';
import type { AppContext } from '../../context';
import { type DB, isUniqueViolation } from '../../db';
import { badRequest, conflict, notFound } from '../../http-error';
import type { CustomerAccess } from '../../policy';
import { invalidField } from '../../validation';
import { auditActorOf, insertAuditEntry } from '../audit/repo';
import { insertCustomization } from '../licences/repo';
import { customizationAbilities, offersCustomization } from './policy';
import * as repo from './repo';
import { type CustomizableType, isCustomizable, validateConfig } from './schemas';

const LICENCE_NOT_FOUND = 'License not found';
const PRODUCT_NOT_FOUND = 'Product not found';
const CUSTOMIZATION_NOT_FOUND = 'Customization not found';
const CUSTOMIZATION_EXISTS = 'This customer already has a customization of this product';
const CONFIG_INVALID = 'The configuration does not follow the schema of its product';

/** A customization as the API gives it, with what the caller's role in its customer allows (`can`). */
function toApiCustomization(row: repo.CustomizationRow, access: CustomerAccess): Customization {
  return {
    id: row.id,
    customerId: row.customerId,
    customerName: row.customerName,
    productKey: row.productKey,
    productName: row.productName,
    customizationType: row.customizationType,
    versionType: row.versionType,
    customConfig: JSON.parse(row.customConfig) as CustomConfig,
    enabled: row.enabled === 1,
    updatedAt: row.updatedAt,
    can: customizationAbilities(access, row),
  };
}

/** A message key (client/i18n), as every field's problem. */
const NOT_CUSTOMIZABLE = 'customization.errors.notCustomizable';
const notCustomizable = () => invalidField('productKey', NOT_CUSTOMIZABLE);
const WHICH_PRODUCT = 'customization.errors.whichProduct';
const WHICH_PRODUCT_OF_ALL = 'customization.errors.whichProductOfAll';
const NO_CUSTOMIZABLE_PRODUCT = 'customization.errors.noCustomizableProduct';

/**
 * The customization type of a product the route's customer holds a licence of: 404 when the
 * product is unknown or the customer holds none of it (their licence is what is customized),
 * 400 on productKey when the product offers no customization.
 */
async function customizableTypeOf(db: DB, customerId: number, productKey: string): Promise<CustomizableType> {
  const product = await repo.findLicensedProduct(db, customerId, productKey);
  if (!product?.licensed) throw notFound(LICENCE_NOT_FOUND);
  if (!offersCustomization(product)) throw notCustomizable();
  return product.customizationType;
}

/**
 * The schema a validation without a product uses: the customization type the customer's licences
 * offer, when there is exactly one; none or several, the product must be named.
 */
async function onlyTypeOf(db: DB, customerId: number): Promise<CustomizableType> {
  const types = (await repo.licensedCustomizationTypes(db, customerId)).filter(isCustomizable);
  if (types.length === 0) throw invalidField('productKey', NOT_CUSTOMIZABLE);
  if (types.length > 1) throw invalidField('productKey', WHICH_PRODUCT);
  return types[0];
}

/**
 * The schema of a validation for no customer in particular (a caller who manages every customer's
 * licences, decision 094): the product's type, else the one type the catalogue offers.
 */
async function catalogueTypeOf(db: DB, productKey: string | undefined): Promise<CustomizableType> {
  if (productKey !== undefined) {
    const type = await repo.productCustomizationType(db, productKey);
    if (type === null) throw notFound(PRODUCT_NOT_FOUND);
    if (!isCustomizable(type)) throw notCustomizable();
    return type;
  }
  const types = (await repo.offeredCustomizationTypes(db)).filter(isCustomizable);
  if (types.length === 0) throw invalidField('productKey', NO_CUSTOMIZABLE_PRODUCT);
  if (types.length > 1) throw invalidField('productKey', WHICH_PRODUCT_OF_ALL);
  return types[0];
}

/** A create or update with an invalid configuration: 400 with one detail per problem, under customConfig. */
function checkConfig(type: CustomizableType, config: CustomConfig, locale: Locale) {
  const problems = validateConfig(type, config, locale);
  if (problems.length > 0) {
    throw badRequest(
      CONFIG_INVALID,
      problems.map((problem: ConfigProblem) => ({ path: `customConfig${problem.path}`, message: problem.message })),
    );
  }
}

/**
 * Checks a configuration against the schema of the product's customization type without storing
 * anything (the modal's validate action). A configuration that breaks the schema is an answer
 * (valid false with its problems), not an error. With a customer (named, or the caller's one), the
 * product is one of its licences; without (a caller who manages every customer's licences and named
 * none, decision 094), any product of the catalogue.
 */
export async function validateCustomization(
  ctx: AppContext,
  actor: Actor,
  input: { customerAccess: CustomerAccess | null; body: ValidateCustomizationBody },
): Promise<ConfigValidation> {
  const { user } = signedInUser(actor);
  const { productKey } = input.body;
  const customerId = input.customerAccess?.customer.id;
  let type: CustomizableType;
  if (customerId === undefined) type = await catalogueTypeOf(ctx.db, productKey);
  else if (productKey) type = await customizableTypeOf(ctx.db, customerId, productKey);
  else type = await onlyTypeOf(ctx.db, customerId);
  const problems = validateConfig(type, input.body.customConfig, user.preferredLocale);
  return { valid: problems.length === 0, problems };
}

/**
 * Creates the customer's customization of a product they hold a licence of, points their licences
 * of that product to it and records it, in one transaction. A customer has at most one per product:
 * a second one is refused (409), also when two requests race past the check (the unique index).
 */
export async function createCustomization(
  ctx: AppContext,
  actor: Actor,
  input: { customerAccess: CustomerAccess; body: CreateCustomizationBody },
): Promise<Customization> {
  const { user } = signedInUser(actor);
  const customerId = input.customerAccess.customer.id;
  const { body } = input;
  const type = await customizableTypeOf(ctx.db, customerId, body.productKey);
  checkConfig(type, body.customConfig, user.preferredLocale);
  if (await repo.customizationExists(ctx.db, customerId, body.productKey)) throw conflict(CUSTOMIZATION_EXISTS);
  let id: number;
  try {
    id = await ctx.db.transaction().execute(async (trx) => {
      const created = await insertCustomization(trx, {
        customerId,
        productKey: body.productKey,
        versionType: body.versionType,
        customConfig: JSON.stringify(body.customConfig),
        enabled: body.enabled ? 1 : 0,
      });
      await repo.linkLicences(trx, customerId, body.productKey, created.id);
      await insertAuditEntry(trx, {
        customerId,
        by: auditActorOf(actor),
        action: 'createCustomization',
        data: {
          customizationId: created.id,
          productKey: body.productKey,
          versionType: body.versionType,
          enabled: body.enabled,
        },
      });
      return created.id;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(CUSTOMIZATION_EXISTS);
    throw error;
  }
  return toApiCustomization((await repo.findCustomization(ctx.db, id))!, input.customerAccess);
}

/** A customization of the route's customer (the access rule resolved it from the same id). */
async function customizationOf(db: DB, customerAccess: CustomerAccess, id: number) {
  const row = await repo.findCustomization(db, id);
  if (!row || row.customerId !== customerAccess.customer.id) throw notFound(CUSTOMIZATION_NOT_FOUND);
  return row;
}

export async function getCustomization(
  ctx: AppContext,
  _actor: Actor,
  input: { customerAccess: CustomerAccess; id: number },
): Promise<Customization> {
  return toApiCustomization(await customizationOf(ctx.db, input.customerAccess, input.id), input.customerAccess);
}

/**
 * Changes a customization's version type, configuration or enabled flag. The configuration must
 * follow its product's schema. Only what changes is written, with an audit entry saying what
 * changed (old and new version type and flag, the top-level configuration keys that changed), in
 * one transaction; nothing to change writes nothing.
 */
export async function updateCustomization(
  ctx: AppContext,
  actor: Actor,
  input: { customerAccess: CustomerAccess; id: number; body: UpdateCustomizationBody },
): Promise<Customization> {
  const { user } = signedInUser(actor);
  const row = await customizationOf(ctx.db, input.customerAccess, input.id);
  if (!offersCustomization(row)) throw notCustomizable();
  const { body } = input;
  checkConfig(row.customizationType, body.customConfig, user.preferredLocale);

  const changes: Parameters<typeof repo.updateCustomization>[2] = {};
  const data: Record<string, unknown> = { customizationId: row.id, productKey: row.productKey };
  if (body.versionType !== row.versionType) {
    changes.versionType = body.versionType;
    data.versionType = { from: row.versionType, to: body.versionType };
  }
  const enabled = row.enabled === 1;
  if (body.enabled !== undefined && body.enabled !== enabled) {
    changes.enabled = body.enabled ? 1 : 0;
    data.enabled = { from: enabled, to: body.enabled };
  }
  const before = JSON.parse(row.customConfig) as CustomConfig;
  const changedKeys = [...new Set([...Object.keys(before), ...Object.keys(body.customConfig)])]
    .filter((key) => !isDeepStrictEqual(before[key], body.customConfig[key]))
    .sort();
  if (changedKeys.length > 0) {
    changes.customConfig = JSON.stringify(body.customConfig);
    data.customConfig = { changed: changedKeys };
  }
  if (Object.keys(changes).length === 0) return toApiCustomization(row, input.customerAccess);

  await ctx.db.transaction().execute(async (trx) => {
    await repo.updateCustomization(trx, row.id, changes);
    await insertAuditEntry(trx, {
      customerId: row.customerId,
      by: auditActorOf(actor),
      action: 'updateCustomization',
      data,
    });
  });
  return toApiCustomization((await repo.findCustomization(ctx.db, row.id))!, input.customerAccess);
}

export async function listCustomizations(
  ctx: AppContext,
  _actor: Actor,
  input: { customerAccess: CustomerAccess; query: CustomizationListQuery },
): Promise<CustomizationList> {
  const rows = await repo.listCustomizations(ctx.db, input.customerAccess.customer.id, input.query.productKey);
  return { data: rows.map((row) => toApiCustomization(row, input.customerAccess)) };
}
