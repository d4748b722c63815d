import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  type CreateProductBody,
  type CreateVersionBody,
  Product,
  ProductList,
  type UpdateProductBody,
  type UpdateVersionBody,
  Version,
  VERSION_PAGE_LENGTH,
  VersionList,
} from '../../common/api/catalogue';
import { MAX_PAGE_LENGTH } from '../../common/pagination';
import { api, FIRST_LOAD_FRESH_MS } from './client';

/** Query keys of the catalogue: a product's versions sit under the product, whoever lists them. */
export const catalogueKeys = {
  all: ['products'] as const,
  product: (productKey: string) => [...catalogueKeys.all, productKey] as const,
  versions: (productKey: string, customerId?: number) =>
    [...catalogueKeys.product(productKey), 'versions', customerId ?? 'all'] as const,
};

interface VersionsListOptions {
  /** the customer whose licence decides which versions are listed; none: every version (staff) */
  customerId?: number;
  pageOffset?: number;
  pageLength?: number;
  /** only the versions newer than this semantic version */
  since?: string;
}

/** `GET /api/products/{key}/versions`: newest first by semantic version. */
const listVersions = (productKey: string, options: VersionsListOptions = {}, signal?: AbortSignal) =>
  api.get(`/products/${encodeURIComponent(productKey)}/versions`, {
    schema: VersionList,
    query: {
      customerId: options.customerId,
      since: options.since,
      pageOffset: options.pageOffset ?? 0,
      pageLength: options.pageLength ?? VERSION_PAGE_LENGTH,
    },
    signal,
  });

/** One page of a product's versions. */
export const versionsQueryOptions = (productKey: string, options: VersionsListOptions = {}) =>
  queryOptions({
    queryKey: [...catalogueKeys.versions(productKey, options.customerId), 'page', options.pageOffset ?? 0],
    queryFn: ({ signal }) => listVersions(productKey, options, signal),
    placeholderData: keepPreviousData,
    staleTime: FIRST_LOAD_FRESH_MS,
  });

/**
 * The versions a customer picks the one it runs from: the newest hundred the licence allows (a
 * product with more lists its older ones only on the customer page).
 */
export const versionChoicesQuery = (productKey: string, customerId: number) =>
  queryOptions({
    queryKey: [...catalogueKeys.versions(productKey, customerId), 'choices'],
    queryFn: ({ signal }) => listVersions(productKey, { customerId, pageLength: MAX_PAGE_LENGTH }, signal),
    staleTime: FIRST_LOAD_FRESH_MS,
  });

/** A page of the versions newer than `since` the customer's licence allows, newest first (pages of a hundred). */
export const versionsSinceQuery = (productKey: string, customerId: number, since: string, pageOffset: number) =>
  queryOptions({
    queryKey: [...catalogueKeys.versions(productKey, customerId), 'since', since, pageOffset],
    queryFn: ({ signal }) =>
      listVersions(productKey, { customerId, since, pageOffset, pageLength: MAX_PAGE_LENGTH }, signal),
    staleTime: FIRST_LOAD_FRESH_MS,
  });

/** Spec 9: the next page brings min(remaining, page length) versions. */
export function previousReleasesCount(loaded: number, total: number, pageLength = VERSION_PAGE_LENGTH): number {
  return Math.max(0, Math.min(total - loaded, pageLength));
}

/** Query keys of the product list and of one product (`catalogueKeys.product` holds its versions too). */
const productKeys = {
  list: [...catalogueKeys.all, 'list'] as const,
  one: (productKey: string) => [...catalogueKeys.product(productKey), 'product'] as const,
};

/** `GET /api/products`: every product, by name. */
export const productsQuery = () =>
  queryOptions({
    queryKey: productKeys.list,
    queryFn: ({ signal }) => api.get('/products', { schema: ProductList, signal }),
  });

/** `GET /api/products/{key}` */
export const productQuery = (productKey: string) =>
  queryOptions({
    queryKey: productKeys.one(productKey),
    queryFn: ({ signal }) => api.get(`/products/${encodeURIComponent(productKey)}`, { schema: Product, signal }),
    staleTime: FIRST_LOAD_FRESH_MS,
  });

export const createProduct = (body: CreateProductBody, idempotencyKey?: string) =>
  api.post('/products', body, { schema: Product, idempotencyKey });

export const updateProduct = (productKey: string, body: UpdateProductBody) =>
  api.patch(`/products/${encodeURIComponent(productKey)}`, body, { schema: Product });

export const createVersion = (productKey: string, body: CreateVersionBody, idempotencyKey?: string) =>
  api.post(`/products/${encodeURIComponent(productKey)}/versions`, body, { schema: Version, idempotencyKey });

/** `PATCH /api/versions/{id}`; `{ published: true }` publishes it, for good. */
export const updateVersion = (id: number, body: UpdateVersionBody) =>
  api.patch(`/versions/${id}`, body, { schema: Version });
