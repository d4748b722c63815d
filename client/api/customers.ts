import { queryOptions } from '@tanstack/react-query';
import { Customer } from '../../common/api/customers';
import { api } from './client';

/** Query keys of customer data: everything of one customer sits under customerKeys.one(id). */
export const customerKeys = {
  all: ['customers'] as const,
  one: (id: number) => ['customers', id] as const,
};

export const getCustomer = (id: number) => api.get(`/customers/${id}`, { schema: Customer });

/** One customer as the signed-in user sees it, with the role they hold there. */
export const customerQuery = (id: number) =>
  queryOptions({ queryKey: customerKeys.one(id), queryFn: () => getCustomer(id) });
