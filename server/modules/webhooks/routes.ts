import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParam, Ok } from '../../../common/api/common';
import { ErrorBody } from '../../../common/api/errors';
import {
  CreatedWebhookEndpoint,
  CreateWebhookBody,
  UpdateWebhookBody,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookDeliveryParams,
  WebhookDeliveryQuery,
  WebhookEndpoint,
  WebhookEndpointList,
} from '../../../common/api/webhooks';
import { access } from '../../plugins/access';
import { actorOf } from '../../plugins/session';
import * as service from './service';

const manageWebhooks = access.can('manageWebhooks');

/**
 * Webhook endpoints and their deliveries (docs/webhooks.md), for admins: the endpoints listed,
 * created (the answer holds the signing secret, once), changed, enabled or disabled, deleted; an
 * endpoint's deliveries listed newest first, and one sent again.
 */
export async function webhookRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['webhooks'];

  api.get(
    '/webhooks',
    {
      config: { access: manageWebhooks },
      schema: {
        operationId: 'listWebhooks',
        tags,
        summary: 'Every webhook endpoint, oldest first (their secrets are never shown again)',
        response: { 200: WebhookEndpointList, 403: ErrorBody },
      },
    },
    async (request) => service.listEndpoints(ctx, actorOf(request)),
  );

  api.post(
    '/webhooks',
    {
      config: { access: manageWebhooks, idempotent: true },
      schema: {
        operationId: 'createWebhook',
        tags,
        summary: 'Register an endpoint for some events; it is enabled at once',
        description:
          'The URL is http(s), without credentials, at most 2048 characters; a host that is an IP address ' +
          'no delivery may reach (link-local, cloud metadata, private without WEBHOOKS_ALLOW_PRIVATE…) is ' +
          'refused, 400 `webhooks.errors.address.*`. The answer holds `secret` ' +
          '(`whsec_…`), shown this once: deliveries are signed with it (docs/webhooks.md).',
        body: CreateWebhookBody,
        response: { 201: CreatedWebhookEndpoint, 403: ErrorBody },
      },
    },
    async (request, reply) => reply.status(201).send(await service.createEndpoint(ctx, actorOf(request), request.body)),
  );

  api.patch(
    '/webhooks/:id',
    {
      config: { access: manageWebhooks },
      schema: {
        operationId: 'updateWebhook',
        tags,
        summary: "Change an endpoint's URL or events, or enable or disable it",
        description:
          'A disabled endpoint gets no new delivery, and its pending ones fail at their next attempt. A new URL ' +
          'follows the rules of createWebhook.',
        params: IdParam,
        body: UpdateWebhookBody,
        response: { 200: WebhookEndpoint, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => service.updateEndpoint(ctx, actorOf(request), { id: request.params.id, body: request.body }),
  );

  api.delete(
    '/webhooks/:id',
    {
      config: { access: manageWebhooks },
      schema: {
        operationId: 'deleteWebhook',
        tags,
        summary: 'Delete an endpoint and its deliveries',
        params: IdParam,
        response: { 200: Ok, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      await service.deleteEndpoint(ctx, actorOf(request), { id: request.params.id });
      return { ok: true as const };
    },
  );

  api.get(
    '/webhooks/:id/deliveries',
    {
      config: { access: manageWebhooks },
      schema: {
        operationId: 'listWebhookDeliveries',
        tags,
        summary: "An endpoint's deliveries, newest first, ten at a time unless pageLength is given",
        params: IdParam,
        querystring: WebhookDeliveryQuery,
        response: { 200: WebhookDeliveryList, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => service.listDeliveries(ctx, actorOf(request), { id: request.params.id, ...request.query }),
  );

  api.post(
    '/webhooks/:id/deliveries/:deliveryId/resend',
    {
      config: { access: manageWebhooks },
      schema: {
        operationId: 'resendWebhookDelivery',
        tags,
        summary: 'Queue a new attempt of a delivery, whatever its status; the answer is the delivery, pending',
        params: WebhookDeliveryParams,
        response: { 202: WebhookDelivery, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) =>
      reply.status(202).send(
        await service.resendDelivery(ctx, actorOf(request), {
          id: request.params.id,
          deliveryId: request.params.deliveryId,
        }),
      ),
  );
}
