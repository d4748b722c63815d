import { z } from 'zod/mini';
import { CUSTOMIZATION_TYPES, CUSTOMIZATION_VERSION_TYPES } from '../domain';
import { CustomizationAbilities } from './abilities';
import { givenOnce, MAX_ID } from './common';
import { LicenceData } from './licences';

/**
 * Per-licence customizations (spec sections 3, 4, 5 and 7): a configuration of a product for one
 * customer, validated against the JSON Schema of the product's customization type (lke, ogma). A
 * customer has at most one customization per product; its licence of the product points to it
 * (`Licence.customizationId`).
 */

/** A configuration: a JSON object (the type's JSON Schema says the rest). */
export const CustomConfig = LicenceData;
export type CustomConfig = z.infer<typeof CustomConfig>;

export const Customization = z.object({
  id: z.int(),
  customerId: z.int(),
  customerName: z.string(),
  productKey: z.string(),
  productName: z.string(),
  customizationType: z.enum(CUSTOMIZATION_TYPES),
  versionType: z.enum(CUSTOMIZATION_VERSION_TYPES),
  customConfig: CustomConfig,
  enabled: z.boolean(),
  updatedAt: z.string(),
  /** what the caller may do with it (server/modules/customizations/policy.ts) */
  can: CustomizationAbilities,
});
export type Customization = z.infer<typeof Customization>;

/**
 * `POST /api/customizations` and `POST /api/customizations/validate`: the customer and product it
 * is for (the customer's licence of that product), version type and configuration required
 * (spec section 5), enabled by default.
 */
export const CreateCustomizationBody = z.strictObject({
  customerId: z.int().check(z.positive(), z.maximum(MAX_ID)),
  productKey: z.string().check(z.trim(), z.minLength(1, 'errors.required'), z.maxLength(100)),
  versionType: z.enum(CUSTOMIZATION_VERSION_TYPES),
  customConfig: CustomConfig,
  enabled: z._default(z.boolean(), true),
});
export type CreateCustomizationBody = z.infer<typeof CreateCustomizationBody>;

/**
 * `POST /api/customizations/validate`: spec section 7's body (versionType, customConfig, enabled);
 * what else picks the schema is optional where it can be derived (decision 094). `customerId`, whose
 * licence it is for: left out, none for those who manage every customer's licences (admin, product
 * manager), the only one for an account executive. `productKey`: left out, the one customization type
 * the customer's licences offer, or without a customer the catalogue's products (400 on productKey
 * when they offer none or several).
 */
export const ValidateCustomizationBody = z.strictObject({
  customerId: z.optional(
    CreateCustomizationBody.shape.customerId.check(
      z.describe(
        'Optional: the customer whose licence the configuration is for. Left out, none for an admin or a product manager (any product of the catalogue), and for an account executive the one customer they are the account executive of (400 on customerId when they are that of several).',
      ),
    ),
  ),
  productKey: z.optional(
    CreateCustomizationBody.shape.productKey.check(
      z.describe(
        "Optional: the product whose customization type's schema applies. Left out, the one customization type the customer's licences offer is used, or without a customer the catalogue's products (400 on productKey when they offer none or several).",
      ),
    ),
  ),
  versionType: CreateCustomizationBody.shape.versionType,
  customConfig: CreateCustomizationBody.shape.customConfig,
  enabled: CreateCustomizationBody.shape.enabled,
});
export type ValidateCustomizationBody = z.infer<typeof ValidateCustomizationBody>;

/** `PATCH /api/customizations/{id}`: version type and configuration required, enabled optional. */
export const UpdateCustomizationBody = z.strictObject({
  versionType: z.enum(CUSTOMIZATION_VERSION_TYPES),
  customConfig: CustomConfig,
  enabled: z.optional(z.boolean()),
});
export type UpdateCustomizationBody = z.infer<typeof UpdateCustomizationBody>;

/**
 * One problem of a configuration: the JSON Pointer of the failing place ("" for the whole) and what
 * is wrong, in the caller's language.
 */
export const ConfigProblem = z.object({ path: z.string(), message: z.string() });
export type ConfigProblem = z.infer<typeof ConfigProblem>;

/**
 * The answer of `POST /api/customizations/validate`. A create or update with an invalid configuration
 * answers 400 with the same problems in the error's details (path `customConfig{pointer}`).
 */
export const ConfigValidation = z.object({ valid: z.boolean(), problems: z.array(ConfigProblem) });
export type ConfigValidation = z.infer<typeof ConfigValidation>;

/** `GET /api/customers/{id}/customizations`: optionally those of one product. */
export const CustomizationListQuery = z.object({
  productKey: z.optional(z.string({ error: givenOnce }).check(z.trim(), z.minLength(1), z.maxLength(100))),
});
export type CustomizationListQuery = z.infer<typeof CustomizationListQuery>;

/** A customer's customizations (at most one per product), by product name. */
export const CustomizationList = z.object({ data: z.array(Customization) });
export type CustomizationList = z.infer<typeof CustomizationList>;
