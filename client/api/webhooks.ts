import { queryOptions } from '@tanstack/react-query';
import {
  CreatedWebhookEndpoint,
  type CreateWebhookBody,
  type UpdateWebhookBody,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
} from '../../common/api/webhooks';
import { DEFAULT_PAGE_LENGTH } from '../../common/pagination';
import { api } from './client';

/** Query keys of the webhooks page: the endpoints, and each endpoint's pages of deliveries. */
export const webhookKeys = {
  all: ['webhooks'] as const,
  endpoints: ['webhooks', 'endpoints'] as const,
  deliveries: (endpointId: number) => ['webhooks', 'deliveries', endpointId] as const,
  deliveryPage: (endpointId: number, offset: number) => ['webhooks', 'deliveries', endpointId, offset] as const,
};

export const webhookEndpointsQuery = () =>
  queryOptions({
    queryKey: webhookKeys.endpoints,
    queryFn: ({ signal }) => api.get('/webhooks', { schema: WebhookEndpointList, signal }),
  });

export const webhookDeliveriesQuery = (endpointId: number, offset: number) =>
  queryOptions({
    queryKey: webhookKeys.deliveryPage(endpointId, offset),
    queryFn: ({ signal }) =>
      api.get(`/webhooks/${endpointId}/deliveries`, {
        query: { pageOffset: offset, pageLength: DEFAULT_PAGE_LENGTH },
        schema: WebhookDeliveryList,
        signal,
      }),
  });

export const createWebhook = (body: CreateWebhookBody, idempotencyKey?: string) =>
  api.post('/webhooks', body, { schema: CreatedWebhookEndpoint, idempotencyKey });

export const updateWebhook = (id: number, body: UpdateWebhookBody) =>
  api.patch(`/webhooks/${id}`, body, { schema: WebhookEndpoint });

export const deleteWebhook = (id: number) => api.delete<unknown>(`/webhooks/${id}`);

export const resendWebhookDelivery = (endpointId: number, deliveryId: number) =>
  api.post(`/webhooks/${endpointId}/deliveries/${deliveryId}/resend`, undefined, { schema: WebhookDelivery });
