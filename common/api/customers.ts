import { z } from 'zod/mini';
import { NOTIFICATION_SETTINGS, type NotificationSetting, PAYMENT_STATUSES } from '../domain';
import { ROLES } from '../roles';
import { isValidCustomerKey } from '../customer-key';
import { CustomerAbilities } from './abilities';
import { givenOnce, listOf, MAX_ID, PageQuery, RequiredText } from './common';

/** The notification flags of one membership (spec section 3, "Notification settings"). */
export const NotificationSettings = z.object(
  Object.fromEntries(NOTIFICATION_SETTINGS.map((flag) => [flag, z.boolean()])) as Record<
    NotificationSetting,
    z.ZodMiniBoolean
  >,
);
export type NotificationSettings = z.infer<typeof NotificationSettings>;

const AccountExecutiveContact = z.object({ fullName: z.string(), email: z.string() });

/**
 * One customer as the caller sees it (spec section 3, "Customer"): `yourRole` is the role the caller
 * holds in it (spec section 6, "Role derivation"); `yourMembershipId` and `yourSettings` are those of
 * the caller's membership, null for staff who see the customer without being a member.
 */
export const Customer = z.object({
  id: z.int(),
  name: z.string(),
  customerKey: z.string(),
  selfService: z.boolean(),
  /** the subscription's status; null when the customer has no subscription */
  paymentStatus: z.nullable(z.enum(PAYMENT_STATUSES)),
  accountExecutive: z.nullable(AccountExecutiveContact),
  /** the billing contact's e-mail; only a project manager of the customer is told it (spec section 2) */
  billingEmail: z.nullable(z.string()),
  yourRole: z.enum(ROLES),
  yourMembershipId: z.nullable(z.int()),
  yourSettings: z.nullable(NotificationSettings),
  /** what the caller may do with this customer (server/modules/customers/policy.ts) */
  can: CustomerAbilities,
});
export type Customer = z.infer<typeof Customer>;

/** `GET /api/customers`: page size 10 (spec section 9); `filter` may carry the `all!` word (decisions.md). */
export const CustomerListQuery = PageQuery;

/** One row of the customer list and of the account picker: the caller's role there comes with it. */
export const CustomerSummary = z.object({
  id: z.int(),
  name: z.string(),
  customerKey: z.string(),
  selfService: z.boolean(),
  yourRole: z.enum(ROLES),
});
export type CustomerSummary = z.infer<typeof CustomerSummary>;

/**
 * The customers the caller may see (spec section 3, "List responses": data with offset and total).
 * Its count stops at a cap (`totalCapped`, common/pagination countCap, decision 013).
 */
export const CustomerList = listOf(CustomerSummary);
export type CustomerList = z.infer<typeof CustomerList>;

/** A customerKey as typed in the customer modal: exactly 10 characters (spec section 5). */
const CustomerKeyText = z.string().check(
  z.trim(),
  z.refine((key) => isValidCustomerKey(key), { message: 'customers.errors.keyLength' }),
);

/**
 * `POST /api/customers` (spec section 7). An empty or missing customerKey is generated (decisions.md);
 * a given one is exactly 10 characters.
 */
export const CreateCustomerBody = z.strictObject({
  name: RequiredText(200),
  customerKey: z._default(
    z.string().check(
      z.trim(),
      z.refine((key) => key === '' || isValidCustomerKey(key), { message: 'customers.errors.keyLength' }),
    ),
    '',
  ),
  selfService: z._default(z.boolean(), false),
});
export type CreateCustomerBody = z.infer<typeof CreateCustomerBody>;

/** `PATCH /api/customers/{id}`: name and customerKey, each optional; a key sent is exactly 10 characters. */
export const UpdateCustomerBody = z.partial(z.strictObject({ name: RequiredText(200), customerKey: CustomerKeyText }));
export type UpdateCustomerBody = z.infer<typeof UpdateCustomerBody>;

/** `PUT /api/customers/{id}/account-executive`: the user (of type accountExecutive) who becomes it. */
export const SetAccountExecutiveBody = z.strictObject({ userId: z.int().check(z.positive(), z.maximum(MAX_ID)) });
export type SetAccountExecutiveBody = z.infer<typeof SetAccountExecutiveBody>;

/** `GET /api/customers/{id}/account-executive/candidates?filter`: enabled account executives to pick from. */
export const AccountExecutiveCandidatesQuery = z.object({
  filter: z.optional(z.string({ error: givenOnce }).check(z.trim(), z.maxLength(200))),
});
const AccountExecutiveCandidate = z.object({ id: z.int(), fullName: z.string(), email: z.string() });
type AccountExecutiveCandidate = z.infer<typeof AccountExecutiveCandidate>;
/** At most this many candidates come back: the picker is searched, not paged. */
export const ACCOUNT_EXECUTIVE_CANDIDATES_LIMIT = 20;
export const AccountExecutiveCandidates = z.object({ data: z.array(AccountExecutiveCandidate) });
export type AccountExecutiveCandidates = z.infer<typeof AccountExecutiveCandidates>;
