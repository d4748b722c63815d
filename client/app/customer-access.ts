import { useQuery } from '@tanstack/react-query';
import type { CUSTOMER_ABILITIES } from '../../common/api/abilities';
import type { MemberRole, Role } from '../../common/roles';
import { customerQuery } from '../api/customers';
import { ApiError } from '../api/client';

export type CustomerAbility = (typeof CUSTOMER_ABILITIES)[number];

/**
 * What a customer screen may show: what the server says the signed-in user may do in that customer
 * (`can`, computed by its policy from the role held there, docs/decisions/056). Hiding is a courtesy;
 * the server decides every call again.
 */
export function useCustomerAccess(
  customerId: number,
  /** `enabled`: wait for something else to bring it; `staleTime`: how long a customer in the cache is taken as it is */
  options: { enabled?: boolean; staleTime?: number } = {},
) {
  const query = useQuery({ ...customerQuery(customerId), ...options });
  const role: Role | null = query.data?.yourRole ?? null;
  const abilities = query.data?.can ?? null;
  return {
    /** the role held in the customer (to show it); null while loading or when the user holds none */
    role,
    /** false while loading */
    can: (ability: CustomerAbility) => abilities?.[ability] === true,
    /** the roles the user may give in an invitation or to a member; empty while loading */
    inviteRoles: (abilities?.inviteRoles ?? []) as readonly MemberRole[],
    /** the customer does not exist or the user holds no role in it: the server does not tell which */
    notFound: query.error instanceof ApiError && query.error.status === 404,
    customer: query.data ?? null,
    query,
  };
}
