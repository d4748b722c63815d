import { queryOptions } from '@tanstack/react-query';
import { Ok } from '../../common/api/common';
import {
  AccountExecutiveCandidates,
  type CreateCustomerBody,
  Customer,
  CustomerList,
  type SetAccountExecutiveBody,
  type UpdateCustomerBody,
} from '../../common/api/customers';
import { api, FIRST_LOAD_FRESH_MS } from './client';

/** Query keys of customer data: everything of one customer sits under customerKeys.one(id). */
export const customerKeys = {
  all: ['customers'] as const,
  one: (id: number) => ['customers', id] as const,
  list: (query: CustomerListParams) => ['customers', 'list', query] as const,
  accountExecutiveCandidates: (id: number, filter: string) =>
    ['customers', id, 'account-executive-candidates', filter] as const,
};

const getCustomer = (id: number) => api.get(`/customers/${id}`, { schema: Customer });

/** One customer as the signed-in user sees it, with the role they hold there. */
export const customerQuery = (id: number) =>
  queryOptions({ queryKey: customerKeys.one(id), queryFn: () => getCustomer(id) });

interface CustomerListParams {
  pageOffset: number;
  pageLength: number;
  filter: string;
}

const listCustomers = ({ pageOffset, pageLength, filter }: CustomerListParams, signal?: AbortSignal) =>
  api.get('/customers', {
    schema: CustomerList,
    query: { pageOffset, pageLength, ...(filter ? { filter } : {}) },
    signal,
  });

/** One page of the customers the signed-in user may see, each with the role held there. */
export const customerListQuery = (params: CustomerListParams) =>
  queryOptions({
    queryKey: customerKeys.list(params),
    queryFn: ({ signal }) => listCustomers(params, signal),
    staleTime: FIRST_LOAD_FRESH_MS,
  });

/** Spec 7 `POST /customers/{id}/sync`: push the customer to the CRM. */
export const syncCustomer = (id: number) => api.post(`/customers/${id}/sync`, undefined, { schema: Ok });

export const createCustomer = (body: CreateCustomerBody, idempotencyKey?: string) =>
  api.post('/customers', body, { schema: Customer, idempotencyKey });

export const updateCustomer = (id: number, body: UpdateCustomerBody) =>
  api.patch(`/customers/${id}`, body, { schema: Customer });

export const setAccountExecutive = (id: number, body: SetAccountExecutiveBody) =>
  api.put(`/customers/${id}/account-executive`, body, { schema: Customer });

/** The enabled account executives who may become the customer's, searched by name or e-mail. */
export const accountExecutiveCandidatesQuery = (id: number, filter: string) =>
  queryOptions({
    queryKey: customerKeys.accountExecutiveCandidates(id, filter),
    queryFn: ({ signal }) =>
      api.get(`/customers/${id}/account-executive/candidates`, {
        schema: AccountExecutiveCandidates,
        query: filter ? { filter } : {},
        signal,
      }),
  });
