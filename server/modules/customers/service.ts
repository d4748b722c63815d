import type { z } from 'zod/mini';
import type { Customer, CustomerList, CustomerListQuery } from '../../../common/api/customers';
import { canInCustomer } from '../../../common/permissions';
import { globalRole, type MemberRole } from '../../../common/roles';
import { type Actor, signedInUser } from '../../actor';
import type { AppContext } from '../../context';
import type { CustomerAccess } from '../../plugins/access';
import { notConfigured } from '../../http-error';
import * as repo from './repo';
import { type MemberScope, searchCustomers } from './search';

const CLIENT_MEMBER_ROLES: readonly MemberRole[] = ['businessOwner', 'technicalContact', 'endUser'];

/**
 * Which customers a user sees in the list (spec section 6, "Role derivation"): admins, product
 * managers and support engineers all (undefined: no restriction); an account executive those where
 * they are the account executive member; a client those where they hold a client role. Only enabled
 * memberships count.
 */
export function memberScopeOf(user: { id: number; type: string }): MemberScope | undefined {
  switch (user.type) {
    case 'admin':
    case 'productManager':
    case 'supportEngineer':
      return undefined;
    case 'accountExecutive':
      return { userId: user.id, roles: ['accountExecutive'] };
    default:
      return { userId: user.id, roles: CLIENT_MEMBER_ROLES };
  }
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
    capped: result.capped,
  };
}

/**
 * One customer as the caller sees it. `customerAccess` comes from the route's access rule (or, for a
 * job or the command line, from resolveCustomerAccess): the caller's role there is established.
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
    billingEmail: canInCustomer(role, 'viewBillingContact') ? details.billingEmail : null,
    yourRole: role,
    yourMembershipId: membership?.id ?? null,
    yourSettings: membership?.settings ?? null,
  };
}

/**
 * Spec 7 `POST /customers/{id}/sync`: pushes the customer to the CRM (SalesForce). No CRM connection
 * exists on this portal yet, so the answer says so plainly rather than pretending to have synced.
 */
export async function syncCustomer(
  _ctx: AppContext,
  _actor: Actor,
  _input: { customerAccess: CustomerAccess },
): Promise<{ ok: true }> {
  throw notConfigured('The connection to SalesForce is not configured on this portal.');
}
