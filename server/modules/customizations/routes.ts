import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParam } from '../../../common/api/common';
import {
  ConfigValidation,
  CreateCustomizationBody,
  Customization,
  CustomizationList,
  CustomizationListQuery,
  UpdateCustomizationBody,
  ValidateCustomizationBody,
} from '../../../common/api/customizations';
import type { CustomerCapability } from '../../../common/permissions';
import { errorResponses } from '../../http-error';
import { access, customerAccessOf, customerAccessOrEvery, idFrom } from '../../plugins/access';
import { actorOf } from '../../plugins/session';
import { customerOfCustomization } from './repo';
import * as service from './service';

/** The customization a route's path names decides its customer. */
const ofCustomization = (capability: CustomerCapability) =>
  access.customer(capability, { load: ({ db }, request) => customerOfCustomization(db, idFrom(request, 'params.id')) });

/**
 * Per-licence customizations (spec section 7: POST /customizations, GET and PATCH
 * /customizations/{id}, POST /customizations/validate), and a customer's customizations, from
 * which the customization modal loads an example.
 */
export async function customizationRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['customizations'];

  api.post(
    '/customizations/validate',
    {
      config: { access: access.customerOrDerived('manageLicences', 'body.customerId') },
      schema: {
        operationId: 'validateCustomization',
        tags,
        summary: "Check a configuration against its product's schema, storing nothing",
        description:
          "Spec section 7's body (versionType, customConfig, enabled); what else picks the schema is optional where it can be derived. customerId is optional: left out, an admin or a product manager (who manage every customer's licences) validates against any product of the catalogue; an account executive, for the one customer they are the account executive of (400 on customerId when they are that of several); other roles get 403, as they do with a customer named. productKey is optional: left out, the schema is that of the one customization type the customer's licences offer, or without a customer the catalogue's products (400 on productKey when they offer none or several). A configuration that breaks the schema answers 200 with valid false and its problems (JSON Pointer and message). 404 when the customer holds no licence of the product named (without a customer: no such product), 400 when the product offers no customization.",
        body: ValidateCustomizationBody,
        response: { 200: ConfigValidation, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) =>
      service.validateCustomization(ctx, actorOf(request), {
        customerAccess: customerAccessOrEvery(request),
        body: request.body,
      }),
  );

  api.post(
    '/customizations',
    {
      config: { access: access.customer('manageLicences', { from: 'body.customerId' }), idempotent: true },
      schema: {
        operationId: 'createCustomization',
        tags,
        summary: "Customize a customer's licence of a product; its licences of the product point to it",
        description:
          "The configuration must follow the schema of the product's customization type (400 with one detail per problem, path customConfig/<pointer>). 404 when the customer holds no licence of the product, 400 when the product offers no customization, 409 when the customer already has a customization of this product.",
        body: CreateCustomizationBody,
        response: { 201: Customization, ...errorResponses(400, 403, 404, 409) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(
        await service.createCustomization(ctx, actorOf(request), {
          customerAccess: customerAccessOf(request),
          body: request.body,
        }),
      ),
  );

  api.get(
    '/customizations/:id',
    {
      config: { access: ofCustomization('viewLicenceDetails') },
      schema: {
        operationId: 'getCustomization',
        tags,
        summary: 'A customization, with its customer, product and configuration',
        params: IdParam,
        response: { 200: Customization, ...errorResponses(403, 404) },
      },
    },
    async (request) =>
      service.getCustomization(ctx, actorOf(request), {
        customerAccess: customerAccessOf(request),
        id: request.params.id,
      }),
  );

  api.patch(
    '/customizations/:id',
    {
      config: { access: ofCustomization('manageLicences') },
      schema: {
        operationId: 'updateCustomization',
        tags,
        summary: "Change a customization's version type, configuration or enabled flag",
        description:
          "The configuration must follow the schema of the product's customization type (400 with one detail per problem, path customConfig/<pointer>).",
        params: IdParam,
        body: UpdateCustomizationBody,
        response: { 200: Customization, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) =>
      service.updateCustomization(ctx, actorOf(request), {
        customerAccess: customerAccessOf(request),
        id: request.params.id,
        body: request.body,
      }),
  );

  api.get(
    '/customers/:id/customizations',
    {
      config: { access: access.customer('viewLicenceDetails', { from: 'params.id' }) },
      schema: {
        operationId: 'listCustomizations',
        tags,
        summary: "A customer's customizations, optionally of one product (at most one per product)",
        params: IdParam,
        querystring: CustomizationListQuery,
        response: { 200: CustomizationList, ...errorResponses(403, 404) },
      },
    },
    async (request) =>
      service.listCustomizations(ctx, actorOf(request), {
        customerAccess: customerAccessOf(request),
        query: request.query,
      }),
  );
}
