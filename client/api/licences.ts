import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  type CreateLicenceBody,
  LicensableProductList,
  Licence,
  LicenceList,
  type UpdateLicenceBody,
} from '../../common/api/licences';
import { DEFAULT_PAGE_LENGTH, MAX_PAGE_LENGTH } from '../../common/pagination';
import { buildUrl, api } from './client';
import { customerKeys } from './customers';

export const LICENCES_PAGE_LENGTH = DEFAULT_PAGE_LENGTH;

/** Query keys of a customer's licences: under the customer's key, so reloading it reloads them. */
export const licenceKeys = {
  all: (customerId: number) => [...customerKeys.one(customerId), 'licences'] as const,
  page: (customerId: number, pageOffset: number) => [...licenceKeys.all(customerId), 'page', pageOffset] as const,
  products: (customerId: number) => [...licenceKeys.all(customerId), 'products'] as const,
  one: (customerId: number, id: number) => [...licenceKeys.all(customerId), 'one', id] as const,
  licensableProducts: (customerId: number) => [...licenceKeys.all(customerId), 'licensable-products'] as const,
};

/** `GET /api/customers/{id}/licenses`: a page of the customer's licences, by product name. */
const listLicences = (customerId: number, pageOffset: number, signal?: AbortSignal) =>
  api.get(`/customers/${customerId}/licenses`, {
    schema: LicenceList,
    query: { pageOffset, pageLength: LICENCES_PAGE_LENGTH },
    signal,
  });

export const licencesQuery = (customerId: number, pageOffset: number) =>
  queryOptions({
    queryKey: licenceKeys.page(customerId, pageOffset),
    queryFn: ({ signal }) => listLicences(customerId, pageOffset, signal),
    placeholderData: keepPreviousData,
  });

/**
 * Every licence of the customer at once, for the versions list's product picker (a customer holds one
 * licence per product, and a vendor has tens of products, not hundreds).
 */
export const allLicencesQuery = (customerId: number) =>
  queryOptions({
    queryKey: licenceKeys.products(customerId),
    queryFn: ({ signal }) =>
      api.get(`/customers/${customerId}/licenses`, {
        schema: LicenceList,
        query: { pageOffset: 0, pageLength: MAX_PAGE_LENGTH },
        signal,
      }),
  });

/** `GET /api/licenses/{id}`: one licence (the renewal opened from an address names only its id). */
const getLicence = (id: number) => api.get(`/licenses/${id}`, { schema: Licence });

export const licenceQuery = (customerId: number, id: number) =>
  queryOptions({ queryKey: licenceKeys.one(customerId, id), queryFn: () => getLicence(id) });

/** `GET /api/customers/{id}/licensable-products`: the products the customer holds no licence of yet. */
const listLicensableProducts = (customerId: number) =>
  api.get(`/customers/${customerId}/licensable-products`, { schema: LicensableProductList });

export const licensableProductsQuery = (customerId: number) =>
  queryOptions({
    queryKey: licenceKeys.licensableProducts(customerId),
    queryFn: () => listLicensableProducts(customerId),
  });

export const createLicence = (customerId: number, body: CreateLicenceBody, idempotencyKey?: string) =>
  api.post(`/customers/${customerId}/licenses`, body, { schema: Licence, idempotencyKey });

export const renewLicence = (id: number, body: UpdateLicenceBody) =>
  api.patch(`/licenses/${id}`, body, { schema: Licence });

/**
 * `POST /api/licenses/{id}/secret`: a new download key (the old one stops working). The list is
 * reloaded afterwards, so the answer's body is not needed here.
 */
export const replaceDownloadSecret = (id: number) => api.post<unknown>(`/licenses/${id}/secret`, undefined);

/** The licence file of a product for a customer (a link: the browser downloads it with the session). */
export const licenceFileUrl = (productKey: string, customerId: number) =>
  buildUrl(`/download/license/${encodeURIComponent(productKey)}`, { customerId });
