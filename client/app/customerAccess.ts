import { useQuery } from '@tanstack/react-query';
import { type CustomerCapability, canInCustomer } from '../../common/permissions';
import type { Role } from '../../common/roles';
import { customerQuery } from '../api/customers';
import { ApiError } from '../api/client';

/**
 * What a customer screen may show: the role the signed-in user holds in that customer, as the server
 * derived it (`yourRole`), read against the shared capability table. Hiding is a courtesy; the server
 * decides every call again.
 */
export function useCustomerAccess(
  customerId: number,
  /** `enabled`: wait for something else to bring it; `staleTime`: how long a customer in the cache is taken as it is */
  options: { enabled?: boolean; staleTime?: number } = {},
) {
  const query = useQuery({ ...customerQuery(customerId), ...options });
  const role: Role | null = query.data?.yourRole ?? null;
  return {
    /** the role held in the customer; null while loading or when the user holds none */
    role,
    can: (capability: CustomerCapability) => canInCustomer(role, capability),
    /** the customer does not exist or the user holds no role in it: the server does not tell which */
    notFound: query.error instanceof ApiError && query.error.status === 404,
    customer: query.data ?? null,
    query,
  };
}
