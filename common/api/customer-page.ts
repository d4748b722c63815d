import { z } from 'zod/mini';
import { DEFAULT_PAGE_LENGTH } from '../pagination';
import { Customer } from './customers';
import { InstanceList } from './instances';
import { InvitationList } from './invitations';
import { LicenceList } from './licences';
import { LogList } from './logs';
import { MemberList } from './members';

/** Each list of the customer page's first screen holds its first page, of this length. */
export const CUSTOMER_PAGE_LENGTH = DEFAULT_PAGE_LENGTH;

/**
 * `GET /api/customers/{id}/page`: what the customer page shows first, in one answer (decision 052):
 * the customer, and the first page of each list the caller's role sees, in the default order and
 * unfiltered, as the list's own route would answer it. A list the role does not see is null
 * (licences for an end user; members, invitations and recent actions for the roles that do not see
 * the team). Every role sees the cloud instances (spec section 4, "Customer page load").
 */
export const CustomerPage = z.object({
  customer: Customer,
  licences: z.nullable(LicenceList),
  members: z.nullable(MemberList),
  invitations: z.nullable(InvitationList),
  recentActions: z.nullable(LogList),
  instances: InstanceList,
});
export type CustomerPage = z.infer<typeof CustomerPage>;
