import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { CustomerPage } from '../../common/api/customer-page';
import type { InvitationSort } from '../../common/api/invitations';
import type { MemberSort } from '../../common/api/members';
import { api } from './client';
import { customerKeys } from './customers';
import { instanceKeys } from './instances';
import { licenceKeys } from './licences';
import { logKeys } from './logs';
import { invitationsQuery, membersQuery, type TeamPage } from './members';
import { customerPagePath, takePreloaded } from './preload';

/**
 * How long the lists the page's answer brought count as fresh: the sections that show them do not
 * ask for them again as they mount. A change made on the page still reloads them (invalidation).
 */
export const FIRST_SCREEN_FRESH_MS = 30_000;

/** `GET /api/customers/{id}/page`: the customer and the first page of each list its role sees. */
const getCustomerPage = (customerId: number) => {
  const path = customerPagePath(customerId);
  return api.get(path, { schema: CustomerPage, preloaded: takePreloaded(path) });
};

const FIRST_MEMBERS: TeamPage<MemberSort> = { offset: 0, filter: '', sort: 'name' };
const FIRST_INVITATIONS: TeamPage<InvitationSort> = { offset: 0, filter: '', sort: 'newest' };

/**
 * The page's first answer, once per visit of the page (decision 052): it puts the customer and each
 * list under the key the section that shows it reads, so the sections render at once, in one render,
 * without asking. Kept by no one afterwards (gcTime 0): the next visit asks again.
 */
export const customerPageQuery = (queryClient: QueryClient, customerId: number) =>
  queryOptions({
    queryKey: ['customer-page', customerId] as const,
    queryFn: async () => {
      const page = await getCustomerPage(customerId);
      queryClient.setQueryData(customerKeys.one(customerId), page.customer);
      if (page.licences) queryClient.setQueryData(licenceKeys.page(customerId, 0), page.licences);
      if (page.members) queryClient.setQueryData(membersQuery(customerId, FIRST_MEMBERS).queryKey, page.members);
      if (page.invitations) {
        queryClient.setQueryData(invitationsQuery(customerId, FIRST_INVITATIONS).queryKey, page.invitations);
      }
      if (page.recentActions) {
        queryClient.setQueryData(logKeys.page(customerId, { offset: 0, action: null }), page.recentActions);
      }
      queryClient.setQueryData(instanceKeys.page(customerId, 0), page.instances);
      return page.customer.id;
    },
    gcTime: 0,
  });
