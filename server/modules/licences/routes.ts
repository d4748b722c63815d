import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParam } from '../../../common/api/common';
import { ErrorBody } from '../../../common/api/errors';
import {
  CreateLicenceBody,
  EndingLicenceList,
  EndingLicenceQuery,
  LicensableProductList,
  Licence,
  LicenceList,
  LicenceListQuery,
  UpdateLicenceBody,
} from '../../../common/api/licences';
import type { CustomerCapability } from '../../../common/permissions';
import { access, customerAccessOf, idFrom } from '../../plugins/access';
import { actorOf } from '../../plugins/session';
import { customerOfLicence } from './repo';
import * as service from './service';

/** The licence a route's path names decides its customer. */
const ofLicence = (capability: CustomerCapability) =>
  access.customer(capability, { load: ({ db }, request) => customerOfLicence(db, idFrom(request, 'params.id')) });

/**
 * Licences (spec section 7): a customer's list and the creation of one, one licence read and
 * renewed, its download secret replaced, the products a customer may be given a licence of, and the
 * licences ending soon across the caller's customers. Paths keep the spec's spelling "licenses".
 */
export async function licenceRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['licences'];

  api.get(
    '/customers/:id/licenses',
    {
      config: { access: access.customer('viewLicences', { from: 'params.id' }) },
      schema: {
        operationId: 'listLicences',
        tags,
        summary: "A customer's licences, by product name, ten at a time unless pageLength is given",
        description:
          'downloadSecret is given to the roles that download (null otherwise), latestDownload to the staff roles that see licence details (null otherwise).',
        params: IdParam,
        querystring: LicenceListQuery,
        response: { 200: LicenceList, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) =>
      service.listLicences(ctx, actorOf(request), {
        customerAccess: customerAccessOf(request),
        query: request.query,
      }),
  );

  api.post(
    '/customers/:id/licenses',
    {
      config: { access: access.customer('manageLicences', { from: 'params.id' }), idempotent: true },
      schema: {
        operationId: 'createLicence',
        tags,
        summary: 'Give the customer a licence of a product (one per product: 409 when it holds one, renew it instead)',
        params: IdParam,
        body: CreateLicenceBody,
        response: { 201: Licence, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) =>
      reply.status(201).send(
        await service.createLicence(ctx, actorOf(request), {
          customerAccess: customerAccessOf(request),
          body: request.body,
        }),
      ),
  );

  api.get(
    '/customers/:id/licensable-products',
    {
      config: { access: access.customer('manageLicences', { from: 'params.id' }) },
      schema: {
        operationId: 'listLicensableProducts',
        tags,
        summary: 'The products the customer holds no licence of, by name (the licence modal)',
        params: IdParam,
        response: { 200: LicensableProductList, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) =>
      service.listLicensableProducts(ctx, actorOf(request), { customerAccess: customerAccessOf(request) }),
  );

  // a static path: it takes precedence over /licenses/:id
  api.get(
    '/licenses/ending',
    {
      config: { access: access.signedIn },
      schema: {
        operationId: 'listEndingLicences',
        tags,
        summary: 'Licences ending within `days` (90 by default) from today, soonest first',
        description:
          "Those of every customer where the caller may manage licences: every customer for admins and product managers, an account executive's own customers, none for the other roles (an empty list).",
        querystring: EndingLicenceQuery,
        response: { 200: EndingLicenceList },
      },
    },
    async (request) => service.listEndingLicences(ctx, actorOf(request), { query: request.query }),
  );

  api.get(
    '/licenses/:id',
    {
      config: { access: ofLicence('viewLicences') },
      schema: {
        operationId: 'getLicence',
        tags,
        summary: 'One licence',
        params: IdParam,
        response: { 200: Licence, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) =>
      service.getLicence(ctx, actorOf(request), { customerAccess: customerAccessOf(request), id: request.params.id }),
  );

  api.patch(
    '/licenses/:id',
    {
      config: { access: ofLicence('manageLicences') },
      schema: {
        operationId: 'renewLicence',
        tags,
        summary: 'Renew a licence: its end date (in the future, after its start), access level and data',
        params: IdParam,
        body: UpdateLicenceBody,
        response: { 200: Licence, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) =>
      service.renewLicence(ctx, actorOf(request), {
        customerAccess: customerAccessOf(request),
        id: request.params.id,
        body: request.body,
      }),
  );

  api.post(
    '/licenses/:id/secret',
    {
      config: { access: ofLicence('manageLicences') },
      schema: {
        operationId: 'replaceDownloadSecret',
        tags,
        summary: 'Replace the download secret of a licence: the old one stops working at once',
        params: IdParam,
        response: { 200: Licence, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) =>
      service.rotateDownloadSecret(ctx, actorOf(request), {
        customerAccess: customerAccessOf(request),
        id: request.params.id,
      }),
  );
}
