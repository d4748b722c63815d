import type { z } from 'zod/mini';
import crypto from 'node:crypto';
import type {
  CreateCustomerBody,
  Customer,
  CustomerList,
  CustomerListQuery,
  UpdateCustomerBody,
} from '../../../common/api/customers';
import { ERROR_CODES } from '../../../common/api/errors';
import { generateCustomerKey } from '../../../common/customer-key';
import { globalRole, type MemberRole, type Role } from '../../../common/roles';
import { type Actor, signedInUser } from '../../actor';
import { type DB, isUniqueViolation } from '../../db';
import { fieldDetail, forbidden, HttpError } from '../../http-error';
import { queueCrmSync, syncCustomerToCrm } from '../crm/service';
import { type AuditActor, auditActorOf, insertAuditEntry } from '../audit/repo';
import { insertCustomer, updateCustomer as storeCustomerChanges } from './store';
import type { AppContext } from '../../context';
import { emitWebhook } from '../webhooks/deliver';
import type { CustomerAccess } from '../../policy';
import { startTrial } from '../billing/trial';
import { customerScopeOf } from '../../scope';
import { customerAbilities, type Integrations, integrationsOf, mayReadBillingContact } from './policy';
import * as repo from './repo';
import { type MemberScope, searchCustomers } from './search-repo';

/**
 * Which customers a user sees in the list (spec section 6, "Role derivation"), from the one scope
 * rule every list spanning customers follows (server/scope.ts, capability viewCustomer): admins,
 * product managers and support engineers all (undefined: no restriction); an account executive those
 * where they are the account executive member; a client those where they hold a client role. Only
 * enabled memberships count; a disabled account sees none.
 */
function memberScopeOf(user: Parameters<typeof customerScopeOf>[0]): MemberScope | undefined | null {
  const scope = customerScopeOf(user, 'viewCustomer');
  if ('every' in scope) return undefined;
  if ('none' in scope) return null;
  return { userId: scope.memberId, roles: scope.roles };
}

/**
 * One page of the customers the caller may see, by name, each with the caller's role there. The
 * filter searches name and customer key; `all!` in it also lists customers whose licences all ended.
 */
export async function listCustomers(
  ctx: AppContext,
  actor: Actor,
  query: z.infer<typeof CustomerListQuery>,
): Promise<CustomerList> {
  const { user } = signedInUser(actor);
  const member = memberScopeOf(user);
  if (member === null) return { data: [], offset: query.pageOffset, total: 0, totalCapped: false };
  const staffRole = globalRole(user.type);
  const result = await searchCustomers(ctx.db, {
    offset: query.pageOffset,
    length: query.pageLength,
    filter: query.filter,
    member,
  });
  return {
    data: result.rows.map((row) => ({
      id: row.id,
      name: row.name,
      customerKey: row.customerKey,
      selfService: row.selfService,
      // the scope only lets through memberships whose role is the caller's role there
      yourRole: staffRole ?? (row.memberRole as MemberRole),
    })),
    offset: query.pageOffset,
    total: result.total,
    totalCapped: result.capped,
  };
}

/**
 * One customer as the caller sees it. `customerAccess` comes from the route's access rule: the
 * caller's role there is established.
 */
export async function getCustomer(
  ctx: AppContext,
  _actor: Actor,
  input: { customerAccess: CustomerAccess },
): Promise<Customer> {
  const { customer, role, membership } = input.customerAccess;
  const details = await repo.findCustomerDetails(ctx.db, customer.id);
  return {
    id: customer.id,
    name: customer.name,
    customerKey: customer.customerKey,
    selfService: customer.selfService,
    paymentStatus: details.paymentStatus,
    accountExecutive: details.accountExecutive,
    billingEmail: mayReadBillingContact(input.customerAccess) ? details.billingEmail : null,
    yourRole: role,
    yourMembershipId: membership?.id ?? null,
    yourSettings: membership?.settings ?? null,
    can: customerAbilities(input.customerAccess, integrationsOf(ctx.config)),
  };
}

/**
 * Spec 7 `POST /customers/{id}/sync`: pushes the customer to the CRM (SalesForce, modules/crm); 409
 * crm_not_configured without a CRM connection, 502 crm_error with the CRM's answer when it refuses.
 */
export async function syncCustomer(
  ctx: AppContext,
  actor: Actor,
  input: { customerAccess: CustomerAccess },
): Promise<{ ok: true }> {
  return syncCustomerToCrm(ctx, actor, { customerId: input.customerAccess.customer.id });
}

const CUSTOMER_KEY_TAKEN = 'A customer with this key already exists';
const customerKeyTaken = () =>
  new HttpError(
    409,
    ERROR_CODES.customerKeyTaken,
    CUSTOMER_KEY_TAKEN,
    fieldDetail('customerKey', ERROR_CODES.customerKeyTaken),
  );

/** Tries before giving up on a generated key: 31^10 keys make even a second try unlikely. */
const GENERATED_KEY_ATTEMPTS = 5;

/** The new customer as its creator sees it: in trial when self-service, no account executive yet. */
function createdCustomer(row: repo.CustomerRow, role: Role, integrations: Integrations): Customer {
  return {
    ...row,
    paymentStatus: row.selfService ? 'trial' : null,
    accountExecutive: null,
    billingEmail: null,
    yourRole: role,
    yourMembershipId: null,
    yourSettings: null,
    can: customerAbilities({ role }, integrations),
  };
}

/**
 * Writes a customer through `trx`: the row, its `trial` subscription when self-service, its
 * `createCustomer` entry by `by` and the `customer.created` webhook. The one way customers are made,
 * from the Customers page (createCustomer) and by a confirmed self-service sign-up (docs/decisions/067).
 */
export async function addCustomer(
  ctx: AppContext,
  trx: DB,
  by: AuditActor,
  input: { name: string; customerKey: string; selfService: boolean },
) {
  const { name, customerKey, selfService } = input;
  const created = await insertCustomer(trx, {
    name,
    customerKey,
    selfService: selfService ? 1 : 0,
    billingEmail: null,
    crmId: null,
  });
  // A self-service customer starts in trial, as one made by the sign-up does (decisions.md):
  // without a payment status its contacts would be sent to pay with no way to.
  if (selfService) await startTrial(ctx, trx, created.id);
  await insertAuditEntry(trx, {
    customerId: created.id,
    by,
    action: 'createCustomer',
    data: { name, customerKey, selfService },
  });
  await emitWebhook(ctx, trx, 'customer.created', { customerId: created.id, name, customerKey, selfService });
  await queueCrmSync(ctx, trx, created.id);
  return created;
}

/** A generated customer key no customer holds yet (decisions.md), read through `db`. */
export async function unusedCustomerKey(db: DB): Promise<string> {
  for (let attempt = 1; attempt <= GENERATED_KEY_ATTEMPTS; attempt++) {
    const customerKey = generateCustomerKey((n) => crypto.randomInt(n));
    if (!(await repo.customerKeyInUse(db, customerKey))) return customerKey;
  }
  throw customerKeyTaken();
}

/**
 * Creates a customer and its audit entry in one transaction. An empty customerKey is generated
 * (decisions.md); a given one already in use is a 409 on the customerKey field.
 */
export async function createCustomer(ctx: AppContext, actor: Actor, input: CreateCustomerBody): Promise<Customer> {
  const { user } = signedInUser(actor);
  const role = globalRole(user.type);
  if (!role) throw forbidden();
  const given = input.customerKey !== '';
  if (given && (await repo.customerKeyInUse(ctx.db, input.customerKey))) throw customerKeyTaken();
  for (let attempt = 1; ; attempt++) {
    const customerKey = given ? input.customerKey : generateCustomerKey((n) => crypto.randomInt(n));
    try {
      const row = await ctx.db
        .transaction()
        .execute((trx) =>
          addCustomer(ctx, trx, auditActorOf(actor), { name: input.name, customerKey, selfService: input.selfService }),
        );
      return createdCustomer({ ...row, selfService: input.selfService }, role, integrationsOf(ctx.config));
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // Two creations with one key at once, or a generated key that was taken: retry a generated one.
      if (given || attempt >= GENERATED_KEY_ATTEMPTS) throw customerKeyTaken();
    }
  }
}

/**
 * Renames a customer or changes its key, with an audit entry naming the old and new values, in one
 * transaction. Only the fields that change are written and recorded; nothing to change writes nothing.
 */
export async function updateCustomer(
  ctx: AppContext,
  actor: Actor,
  input: { customerAccess: CustomerAccess; patch: UpdateCustomerBody },
): Promise<Customer> {
  signedInUser(actor);
  const { customer } = input.customerAccess;
  const changes: Partial<Pick<repo.CustomerRow, 'name' | 'customerKey'>> = {};
  if (input.patch.name !== undefined && input.patch.name !== customer.name) changes.name = input.patch.name;
  if (input.patch.customerKey !== undefined && input.patch.customerKey !== customer.customerKey)
    changes.customerKey = input.patch.customerKey;
  if (changes.customerKey !== undefined && (await repo.customerKeyInUse(ctx.db, changes.customerKey)))
    throw customerKeyTaken();
  if (Object.keys(changes).length > 0) {
    try {
      await ctx.db.transaction().execute(async (trx) => {
        await storeCustomerChanges(trx, customer.id, changes);
        await insertAuditEntry(trx, {
          customerId: customer.id,
          by: auditActorOf(actor),
          action: 'updateCustomer',
          data: Object.fromEntries(
            Object.entries(changes).map(([field, value]) => [
              field,
              { from: customer[field as keyof typeof changes], to: value },
            ]),
          ),
        });
        await queueCrmSync(ctx, trx, customer.id);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw customerKeyTaken();
      throw error;
    }
  }
  return getCustomer(ctx, actor, {
    customerAccess: { ...input.customerAccess, customer: { ...customer, ...changes } },
  });
}
