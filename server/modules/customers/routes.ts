import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParam, Ok } from '../../../common/api/common';
import {
  ACCOUNT_EXECUTIVE_CANDIDATES_LIMIT,
  AccountExecutiveCandidates,
  AccountExecutiveCandidatesQuery,
  CreateCustomerBody,
  Customer,
  CustomerList,
  CustomerListQuery,
  SetAccountExecutiveBody,
  UpdateCustomerBody,
} from '../../../common/api/customers';
import { CustomerPage } from '../../../common/api/customer-page';
import { ErrorBody } from '../../../common/api/errors';
import { access, customerAccessOf } from '../../plugins/access';
import { actorOf } from '../../plugins/session';
import * as accountExecutive from './account-executive';
import { customerPage } from './page';
import * as service from './service';

/** Customers (spec section 7, "/customers"); who may see one is decided by the role held in it. */
export async function customerRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['customers'];

  api.get(
    '/customers',
    {
      config: { access: access.signedIn },
      schema: {
        operationId: 'listCustomers',
        tags,
        summary: "One page of the customers the caller may see, by name, with the caller's role in each",
        description:
          'Admins, product managers and support engineers see every customer; an account executive those ' +
          'where they are the account executive member; a client those of their enabled memberships. The ' +
          'filter matches a part of the name or customer key (the start, for one or two characters), ' +
          'whatever the case, as plain text. For staff, customers whose licences all ended are left out ' +
          'unless the filter holds the word all!. `totalCapped`: there are more than `total`.',
        querystring: CustomerListQuery,
        response: { 200: CustomerList },
      },
    },
    async (request) => service.listCustomers(ctx, actorOf(request), request.query),
  );

  api.get(
    '/customers/:id',
    {
      config: { access: access.customer('viewCustomer', { from: 'params.id' }) },
      schema: {
        operationId: 'getCustomer',
        tags,
        summary: 'One customer, with the role, membership and notification settings of the caller there',
        description: 'Anyone with a role in the customer; 404 for anyone else, whether or not it exists.',
        params: IdParam,
        response: { 200: Customer, 404: ErrorBody },
      },
    },
    async (request) => service.getCustomer(ctx, actorOf(request), { customerAccess: customerAccessOf(request) }),
  );

  api.get(
    '/customers/:id/page',
    {
      config: { access: access.customer('viewCustomer', { from: 'params.id' }) },
      schema: {
        operationId: 'getCustomerPage',
        tags,
        summary: "The customer page's first screen: the customer and the first page of each list the caller sees",
        description:
          'Anyone with a role in the customer; 404 for anyone else. The licences (null for the roles that do not see them), ' +
          'the members, the pending invitations and the recent actions (null for the roles that do not see the team): ' +
          'each the first page of ten, in its default order, as GET /customers/{id}/licenses, GET /customers/{id}/members, ' +
          'GET /invitations?customerId and GET /customers/{id}/logs answer it.',
        params: IdParam,
        response: { 200: CustomerPage, 404: ErrorBody },
      },
    },
    async (request) => customerPage(ctx, actorOf(request), { customerAccess: customerAccessOf(request) }),
  );

  api.post(
    '/customers/:id/sync',
    {
      config: { access: access.customer('telemetryAndSync', { from: 'params.id' }) },
      schema: {
        operationId: 'syncCustomer',
        tags,
        summary: 'Push the customer to the CRM (SalesForce)',
        description:
          'Account executives, admins, product managers and support engineers of the customer. Upserts the ' +
          'customer (Account), its members (Contacts) and licences (Portal_Licence__c) by external id (docs/crm.md), ' +
          'so a repeated sync changes nothing, and keeps the account id. 409 `crm_not_configured` without the ' +
          "CRM settings (the customer's `can.syncWithCrm` is then false); 502 `crm_error` with the CRM's answer when it refuses or cannot be reached.",
        params: IdParam,
        response: { 200: Ok, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 502: ErrorBody },
      },
    },
    async (request) => service.syncCustomer(ctx, actorOf(request), { customerAccess: customerAccessOf(request) }),
  );

  api.post(
    '/customers',
    {
      config: { access: access.can('addCustomer'), idempotent: true },
      schema: {
        operationId: 'createCustomer',
        tags,
        summary: 'Create a customer; an empty customerKey is generated',
        description: 'Admins only. customerKey: exactly 10 characters, unique (409 on the customerKey field).',
        body: CreateCustomerBody,
        response: { 201: Customer, 409: ErrorBody },
      },
    },
    async (request, reply) => reply.status(201).send(await service.createCustomer(ctx, actorOf(request), request.body)),
  );

  api.patch(
    '/customers/:id',
    {
      config: { access: access.customer('editCustomer', { from: 'params.id' }) },
      schema: {
        operationId: 'updateCustomer',
        tags,
        summary: 'Rename a customer or change its key',
        description: 'Admins only. customerKey: exactly 10 characters, unique (409 on the customerKey field).',
        params: IdParam,
        body: UpdateCustomerBody,
        response: { 200: Customer, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) =>
      service.updateCustomer(ctx, actorOf(request), {
        customerAccess: customerAccessOf(request),
        patch: request.body,
      }),
  );

  const manageLicences = access.customer('manageLicences', { from: 'params.id' });

  api.get(
    '/customers/:id/account-executive/candidates',
    {
      config: { access: manageLicences },
      schema: {
        operationId: 'listAccountExecutiveCandidates',
        tags,
        summary: "Enabled account executives who may become the customer's account executive",
        description:
          'Account executives, admins and product managers of the customer (manageLicences). The filter ' +
          `matches a part of the full name or e-mail; at most ${ACCOUNT_EXECUTIVE_CANDIDATES_LIMIT}, by name.`,
        params: IdParam,
        querystring: AccountExecutiveCandidatesQuery,
        response: { 200: AccountExecutiveCandidates, 404: ErrorBody },
      },
    },
    async (request) =>
      accountExecutive.listAccountExecutiveCandidates(ctx, actorOf(request), { filter: request.query.filter }),
  );

  api.put(
    '/customers/:id/account-executive',
    {
      config: { access: manageLicences },
      schema: {
        operationId: 'setAccountExecutive',
        tags,
        summary: "Make an enabled user of type accountExecutive the customer's account executive",
        description:
          'Account executives, admins and product managers of the customer (manageLicences). The previous ' +
          "account executive's membership is disabled. 400 on userId when the user is not an enabled " +
          'account executive.',
        params: IdParam,
        body: SetAccountExecutiveBody,
        response: { 200: Customer, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) =>
      accountExecutive.setAccountExecutive(ctx, actorOf(request), {
        customerAccess: customerAccessOf(request),
        userId: request.body.userId,
      }),
  );
}
