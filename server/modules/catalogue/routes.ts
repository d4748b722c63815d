import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CreateProductBody,
  CreateVersionBody,
  Product,
  ProductKeyParam,
  ProductList,
  UpdateProductBody,
  UpdateVersionBody,
  Version,
  VersionList,
  VersionListQuery,
} from '../../../common/api/catalogue';
import { IdParam } from '../../../common/api/common';
import { ErrorBody } from '../../../common/api/errors';
import { access, customerAccessIfGiven } from '../../plugins/access';
import { actorOf } from '../../plugins/session';
import * as service from './service';

/**
 * The catalogue (spec sections 2, 5 and 7): products and their versions. Product managers and admins
 * read and manage versions; only admins add and edit products. A customer's view of a product's
 * versions (the customer page) is the versions list with a customerId.
 */
export async function catalogueRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['catalogue'];

  api.get(
    '/products',
    {
      config: { access: access.can('viewProducts') },
      schema: {
        operationId: 'listProducts',
        tags,
        summary: 'Every product, by name',
        response: { 200: ProductList, 403: ErrorBody },
      },
    },
    async (request) => service.listProducts(ctx, actorOf(request)),
  );

  api.post(
    '/products',
    {
      config: { access: access.can('addProduct'), idempotent: true },
      schema: {
        operationId: 'createProduct',
        tags,
        summary: 'Add a product (its key is unique: 409 when taken)',
        body: CreateProductBody,
        response: { 201: Product, 403: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) => reply.status(201).send(await service.createProduct(ctx, actorOf(request), request.body)),
  );

  api.get(
    '/products/:key',
    {
      config: { access: access.can('viewProducts') },
      schema: {
        operationId: 'getProduct',
        tags,
        summary: 'One product',
        params: ProductKeyParam,
        response: { 200: Product, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => service.getProduct(ctx, actorOf(request), { key: request.params.key }),
  );

  api.patch(
    '/products/:key',
    {
      config: { access: access.can('editProduct') },
      schema: {
        operationId: 'updateProduct',
        tags,
        summary: "Change a product's name, description, customization type or SaaS flag (the key stays)",
        params: ProductKeyParam,
        body: UpdateProductBody,
        response: { 200: Product, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => service.updateProduct(ctx, actorOf(request), { key: request.params.key, body: request.body }),
  );

  api.get(
    '/products/:key/versions',
    {
      config: { access: access.customerIfGiven('viewLicences', 'query.customerId') },
      schema: {
        operationId: 'listVersions',
        tags,
        summary: "A product's versions, newest first by semantic version, ten at a time unless pageLength is given",
        description:
          "With customerId: the published versions that customer's licence of the product allows (its access level decides the types; none without a licence), for the roles that see its licences. Without: every version, published or not, for product managers and admins. `since` keeps the versions newer than that semantic version (what changed since the one a customer runs). Each version's `latestFor` names the access levels whose newest published version it is (with customerId, only the licence's).",
        params: ProductKeyParam,
        querystring: VersionListQuery,
        response: { 200: VersionList, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) =>
      service.listVersions(ctx, actorOf(request), {
        productKey: request.params.key,
        customerAccess: customerAccessIfGiven(request),
        query: request.query,
      }),
  );

  api.post(
    '/products/:key/versions',
    {
      config: { access: access.can('manageVersions'), idempotent: true },
      schema: {
        operationId: 'createVersion',
        tags,
        summary: 'Add an unpublished version (its semVer is unique per product: 409 when taken)',
        params: ProductKeyParam,
        body: CreateVersionBody,
        response: { 201: Version, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await service.createVersion(ctx, actorOf(request), { productKey: request.params.key, body: request.body }),
        ),
  );

  api.get(
    '/versions/:id',
    {
      config: { access: access.can('viewProducts') },
      schema: {
        operationId: 'getVersion',
        tags,
        summary: 'One version, published or not',
        params: IdParam,
        response: { 200: Version, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => service.getVersion(ctx, actorOf(request), { id: request.params.id }),
  );

  api.patch(
    '/versions/:id',
    {
      config: { access: access.can('manageVersions') },
      schema: {
        operationId: 'updateVersion',
        tags,
        summary: 'Change a version, or publish it with published: true (final; the release date is today)',
        description:
          'A published version takes only description and type: 409 for title or semVer. Publishing notifies the members who asked for new versions and whose licence allows its type.',
        params: IdParam,
        body: UpdateVersionBody,
        response: { 200: Version, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => service.updateVersion(ctx, actorOf(request), { id: request.params.id, body: request.body }),
  );
}
