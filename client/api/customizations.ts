import { queryOptions } from '@tanstack/react-query';
import {
  ConfigValidation,
  type CreateCustomizationBody,
  Customization,
  CustomizationList,
  type UpdateCustomizationBody,
  type ValidateCustomizationBody,
} from '../../common/api/customizations';
import { api } from './client';

export const customizationKeys = {
  all: ['customizations'] as const,
  one: (id: number) => [...customizationKeys.all, id] as const,
};

const getCustomization = (id: number) => api.get(`/customizations/${id}`, { schema: Customization });

export const customizationQuery = (id: number) =>
  queryOptions({ queryKey: customizationKeys.one(id), queryFn: () => getCustomization(id) });

export const createCustomization = (body: CreateCustomizationBody, idempotencyKey?: string) =>
  api.post('/customizations', body, { schema: Customization, idempotencyKey });

export const updateCustomization = (id: number, body: UpdateCustomizationBody) =>
  api.patch(`/customizations/${id}`, body, { schema: Customization });

/**
 * Checks a configuration against its product's schema: an invalid one is an answer (valid false), not
 * an error. Spec 7's body; `customerId` and `productKey` may be left out where the caller's scope and
 * the licences say them (decision 094). The customization modal names both: it validates one
 * licence's configuration, so the answer is about that licence (404 once it is gone), whoever asks.
 */
export const validateCustomization = (body: ValidateCustomizationBody) =>
  api.post('/customizations/validate', body, { schema: ConfigValidation });

/** The customizations a customer holds of one product (at most one), to start from as an example. */
export const listCustomerCustomizations = (customerId: number, productKey: string) =>
  api.get(`/customers/${customerId}/customizations`, { query: { productKey }, schema: CustomizationList });
