import { CUSTOMER_PAGE_LENGTH, type CustomerPage } from '../../../common/api/customer-page';
import type { Actor } from '../../actor';
import type { AppContext } from '../../context';
import type { CustomerAccess } from '../../policy';
import { listLogs } from '../audit/service';
import { listInstances } from '../instances/service';
import { listInvitations } from '../invitations/service';
import { listLicences } from '../licences/service';
import { getSubscription } from '../billing/service';
import { listMembers } from '../members/service';
import { customerAbilities, integrationsOf } from './policy';
import { getCustomer } from './service';

/**
 * The customer page's first screen in one answer (decision 052): the customer and the first page of
 * each list the role sees, each read by the service its own route calls, with that route's defaults
 * (so the answer is the one the list's route would give, field for field, and the client keeps it
 * under that list's key). A list the role does not see is not read.
 */
export async function customerPage(
  ctx: AppContext,
  actor: Actor,
  input: { customerAccess: CustomerAccess },
): Promise<CustomerPage> {
  const { customerAccess } = input;
  const can = customerAbilities(customerAccess, integrationsOf(ctx.config));
  const page = { pageOffset: 0, pageLength: CUSTOMER_PAGE_LENGTH };
  const team = can.viewTeam;
  const [customer, licences, members, invitations, recentActions, subscription, instances] = await Promise.all([
    getCustomer(ctx, actor, { customerAccess }),
    can.viewLicences ? listLicences(ctx, actor, { customerAccess, query: page }) : null,
    team ? listMembers(ctx, actor, { customerAccess, query: { ...page, filter: '', sort: 'name' } }) : null,
    team ? listInvitations(ctx, actor, { customerAccess, query: { ...page, filter: '', sort: 'newest' } }) : null,
    can.viewRecentActions ? listLogs(ctx, actor, { customerAccess, query: { ...page, action: undefined } }) : null,
    can.viewSubscription ? getSubscription(ctx, actor, { customerAccess }) : null,
    listInstances(ctx, actor, { customerAccess, query: page }),
  ]);
  return { customer, licences, members, invitations, recentActions, subscription, instances };
}
