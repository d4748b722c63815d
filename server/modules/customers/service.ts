import type { Customer } from '../../../common/api/customers';
import type { Actor } from '../../actor';
import type { AppContext } from '../../context';
import type { CustomerAccess } from '../../plugins/access';
import * as repo from './repo';

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
    yourRole: role,
    yourMembershipId: membership?.id ?? null,
    yourSettings: membership?.settings ?? null,
  };
}
